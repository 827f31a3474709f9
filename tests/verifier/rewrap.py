"""A mail client's re-wrapping, for the verifier tests ("Lines of 72 columns" of
docs/dice-protocol.md): every line of each mail's plain-text part filled again at WIDTH columns
with Python's textwrap (breaking at spaces, and inside a word wider than WIDTH, as clients do),
and with --quote every line quoted "> " as a reply quotes it. Every other part is kept.

    python3 rewrap.py WIDTH [--quote] SOURCE... DEST_FOLDER
"""

import email
import email.policy
import sys
import textwrap
from pathlib import Path


def rewrap(text: str, width: int, quote: bool) -> str:
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        lines += textwrap.wrap(line, width) if line.strip() else [line]
    return "\n".join(("> " + x) if quote else x for x in lines)


def main(argv):
    width, quote = int(argv[0]), "--quote" in argv
    paths = [Path(a) for a in argv[1:] if a != "--quote"]
    dest = paths.pop()
    dest.mkdir(parents=True, exist_ok=True)
    for src in paths:
        for f in sorted(src.iterdir()) if src.is_dir() else [src]:
            msg = email.message_from_bytes(f.read_bytes(), policy=email.policy.default)
            part = msg.get_body(("plain",))
            if part is not None:
                part.set_content(rewrap(part.get_content(), width, quote), charset="utf-8")
            (dest / f.name).write_bytes(msg.as_bytes())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
