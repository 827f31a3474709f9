"""How verify_mails.py reads a Despatch mail (docs/dice-protocol.md, "The seal of a mail", the
dice section, receipts, "The signature of a mail"): text in, values out. It computes no hash of
the protocol and decides nothing: verify_mails.py does.
"""

import email
import email.policy
import hashlib
import re
from pathlib import Path

def parse_die(label: str):
    """How the dice table prints a die: `d6`, `d10(0-9)`, `[2,3,3,4,4,5]`."""
    label = label.strip()
    if label.startswith("[") and label.endswith("]"):
        return ("list", [int(x) for x in label[1:-1].split(",")])
    m = re.fullmatch(r"d(\d+)(\(0-\d+\))?", label)
    if not m:
        raise ValueError(f"unreadable die {label!r}")
    return ("d0" if m.group(2) else "d", int(m.group(1)))


# Reading mails.


def text_of(path: Path):
    """The subject, the plain-text part (decoded, LF line ends) and the parsed message."""
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    for part in msg.walk():
        if part.get_content_type() == "text/plain" and not part.is_attachment():
            return str(msg["subject"] or ""), part.get_content().replace("\r\n", "\n"), msg
    return str(msg["subject"] or ""), "", msg


def normalise(text: str) -> str:
    """"The seal of a mail": CRLF to LF, trailing blanks cut from each line."""
    return "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").split("\n"))


DIGEST = "Mail-Digest: sha256:"
FOLD = "\\"
REWRAPPED = "re-wrapped by the mail client: use the saved .eml (the mail as it arrived)"


def unfold(text: str) -> str:
    """"Lines of 72 columns": a line ending in a backslash (trailing blanks aside) loses it and
    takes the next line less its two-space indentation (or the one space, or none, a client
    left). Text with no folded line comes back as it is."""
    lines, joining = [], False
    for raw in text.split("\n"):
        t = raw.rstrip()
        more = t.endswith(FOLD)
        body = t[:-1] if more else raw
        if joining and lines:
            lines[-1] += body[2:] if body.startswith("  ") else body[1:] if body.startswith(" ") else body
        else:
            lines.append(body)
        joining = more
    return "\n".join(lines)


def seal_ok(text: str):
    norm = normalise(text)
    at = norm.rfind(DIGEST)
    # The digest may be folded; its continuation lines are outside the digested text.
    claimed = unfold(norm[at + len(DIGEST):]).split("\n")[0].strip()
    actual = hashlib.sha256(norm[:at].rstrip().encode()).hexdigest()
    return claimed == actual, claimed, actual


def restore(text: str):
    """"Lines of 72 columns", re-wrapped mails: the text with a mail client's quoting ("> ") and
    line breaks undone, if one way of undoing them makes the seal match (the seal is the only
    judge); "unreadable" when the text bears them but no way does; None when it bears none."""
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    full = [x for x in lines if x.strip()]
    quoted = bool(full) and all(x.startswith(">") for x in full)
    if quoted:
        lines = [x[2:] if x.startswith("> ") else x[1:] if x.startswith(">") else x for x in lines]
    width = max((len(x) for x in lines), default=0)
    # Every line after a folded one starts with two spaces; a client that moved a piece too
    # wide for them onto a line of its own dropped them: they go back.
    reindented = False
    for i in range(1, len(lines)):
        if lines[i - 1].rstrip().endswith(FOLD) and lines[i].strip() and not lines[i].startswith(" "):
            lines[i], reindented = "  " + lines[i], True
    breaks = []  # (index, joiner): lines i and i+1 may be one line the client broke
    joined = len(lines[0]) if lines else 0  # the width of a's line, breaks before it joined
    for i in range(len(lines) - 1 if width >= 40 else 0):
        a, b = lines[i], lines[i + 1]
        before, joined = joined - len(a), len(b)
        if not a.strip() or not b.strip() or b.startswith(" "):
            continue
        first, last = b.split(" ")[0], a.split(" ")[-1]
        # A board drawing is the one kind of line wider than 72 (a client cuts it mid-row).
        def fits(j, a=a, b=b, before=before):
            t = (a + j + b).strip()
            return before + len(a + j + b) <= 72 or (t[:1] in "|+" and t[-1:] in "|+" and len(t) > 1)
        if len(a) == width and len(last) + len(first) > width:
            joiner = ""  # a word wider than the client's line, cut where the line was full
        elif len(a) + 1 + len(first) > width:
            joiner = ("" if len(a) > 1 and a[-1] == "-" and a[-2] != " "  # after a hyphen
                      else "  " if "  " in a.lstrip() else " ")  # a legend sets items two apart
        else:
            continue
        if fits(joiner):
            breaks.append((i, joiner))
            joined = before + len(a + joiner + b)
    if not quoted and not reindented and not breaks:
        return None

    def build(skip, other):  # which break is left as it is, or joined otherwise
        at = {i: (n, j) for n, (i, j) in enumerate(breaks)}
        out = []
        for i, line in enumerate(lines):
            out.append(line)
            if i + 1 < len(lines):
                n, joiner = at.get(i, (None, "\n"))
                if n is None or n == skip:
                    out.append("\n")
                elif other and other[0] == n:
                    out.append(other[1])
                else:
                    out.append(joiner)
        return "".join(out) + "\n"

    tries = [(None, None)]
    for n, (_, joiner) in enumerate(breaks[:64]):  # every break joined first; 64 weighed
        tries += [(n, None)] + [(None, (n, j)) for j in (" ", "  ", "") if j != joiner]
    for skip, other in tries:
        candidate = build(skip, other)
        if seal_ok(candidate)[0]:
            return candidate
    return "unreadable"


SIGNATURE = re.compile(r"Mail-Signature: ed25519:([0-9a-f]{128})")


def signature_of(text: str):
    """"The signature of a mail": the 64 bytes on the line right after the Mail-Digest line
    (both maybe folded), or None when that line is not a signature."""
    norm = unfold(normalise(text))
    after = norm[norm.rfind(DIGEST):].split("\n")[1:2]
    m = SIGNATURE.fullmatch(after[0].strip()) if after else None
    return hexval(m.group(1)) if m else None


class AttachedMail:
    """A mail attached whole to another (message/rfc822: a mail that waited for the seat's next
    one, one mail a step): read as a mail of its own, named `<file>/<attachment>`."""

    suffix = ".eml"

    def __init__(self, name: str, data: bytes):
        self.name, self._data = name, data

    def read_bytes(self) -> bytes:
        return self._data


def attached_mails(path):
    """The mails attached whole to the mail at `path`, one level deep."""
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    out = []
    for part in msg.iter_attachments() if msg.is_multipart() else []:
        if part.get_content_type() == "message/rfc822":
            inner = part.get_payload(0)
            name = part.get_filename() or f"part-{len(out) + 1}.eml"
            out.append(AttachedMail(f"{path.name}/{name}", inner.as_bytes()))
    return out


def mail_files(args):
    files = []
    for a in map(Path, args):
        if a.is_file():
            files.append(a)
            continue
        for d in [a, a / "cur", a / "new"]:
            if d.is_dir():
                files += [p for p in d.iterdir() if p.is_file()]
    files = sorted(files, key=lambda p: p.name)
    return [m for f in files for m in [f, *(attached_mails(f) if f.suffix != ".jsonl" else [])]]


HEX = r"([0-9a-f]{64})"


def hexval(s: str) -> bytes:
    return bytes.fromhex(s)


def parse_dice(text: str):
    """The results mail's "DICE (despatch-dice/vN, game <id>, step <k>)" section (templates/dice.txt)."""
    m = re.search(r"^DICE \((despatch-dice/v\d+), game (\S+), step (\d+)\)$", text, re.M)
    if not m:
        return None
    d = {"proto": m.group(1), "game": m.group(2), "step": int(m.group(3)), "seats": [],
         "rolls": [], "strict": []}
    k = d["step"]
    for line in text[m.end():].split("\n")[1:]:
        line = line.rstrip()
        if line in ("--", "-- ") or line.startswith("-- "):
            break
        kv = re.fullmatch(r"(L|v|S)_(\d+) = " + HEX, line)
        if kv and int(kv.group(2)) == k:
            d[kv.group(1)] = hexval(kv.group(3))
            continue
        # Strict games ("Strict mode"): each strict seat's r_seat_k, in seat order, "-" when
        # the seat gave none; they join S_k after m, the number of strict seats.
        kv = re.fullmatch(r"strict r (\S+) = (-|[0-9a-f]{64})", line)
        if kv:
            d["strict"].append((kv.group(1), b"" if kv.group(2) == "-" else hexval(kv.group(2))))
            continue
        kv = re.fullmatch(r"log head before the lock = #(\d+)", line)
        if kv:  # "One game for every seat": the index of the lock-input log_head
            d["log_head_index"] = int(kv.group(1))
            continue
        kv = re.fullmatch(r"lock input (\S+) = (-|[0-9a-f]{64})", line)
        if kv:
            value = None if kv.group(2) == "-" else hexval(kv.group(2))
            if kv.group(1) == "log_head":
                d["log_head"] = value
            else:
                d["seats"].append((kv.group(1), value))
            continue
        cols = line.split(" | ")
        if len(cols) == 4 and cols[0].strip().isdigit():
            results = [int(x) for x in cols[2].split(",")]
            d["rolls"].append((int(cols[0]), parse_die(cols[1]), results, cols[3]))
    missing = [f for f in ("L", "v", "S", "log_head") if f not in d]
    if missing:
        raise ValueError(f"the dice section lacks {', '.join(missing)}")
    return d


def parse_receipt(text: str):
    """A receipt: "Orders received for <seat>, step <k>", the orders, "Digest D =", "Your salt ="."""
    m = re.search(r"^Orders received for (\S+), step (\d+)", text, re.M)
    d = re.search(r"^Digest D = " + HEX, text, re.M)
    if not (m and d):
        return None
    salt = re.search(r"^Your salt = " + HEX, text, re.M)
    orders, inside = [], False
    for line in text.split("\n"):
        if line.startswith("This is what Despatch understood"):
            inside = True
        elif inside:
            if not line.startswith("    "):
                break
            if line[4:] != "(no orders)":
                orders.append(line[4:] + "\n")  # canonical orders: one per line, each ended by \n
    return {"seat": m.group(1), "step": int(m.group(2)), "digest": hexval(d.group(1)),
            "salt": hexval(salt.group(1)) if salt else None, "orders": "".join(orders)}


def dice_section(d) -> str:
    """A dice section's values in one normal form (hex, the dice table's rows), to compare."""
    rows = [f"{j}|{die}|{results}|{label}" for j, die, results, label in d["rolls"]]
    return "\n".join([d["proto"], d["game"], str(d["step"]), d["L"].hex(), d["v"].hex(),
                      d["S"].hex(), (d["log_head"] or b"").hex(), str(d.get("log_head_index")),
                      *(f"r {s} {r.hex()}" for s, r in d["strict"]),
                      *(f"D {s} {(x or b'').hex()}" for s, x in d["seats"]), *rows])


def show(value: str) -> str:
    """A held value in a finding: a hex value as it is, a dice section by its L_k and S_k."""
    lines = value.split("\n")
    return value if len(lines) == 1 else f"L_{lines[2]} = {lines[3]}, S_{lines[2]} = {lines[5]}"
