"""The known-answer vectors of docs/dice-protocol.md, read from the page itself and recomputed
with verify_mails.py's own SHA-256 layouts, ChaCha20 and die rule (`verify_mails.py --self-test`).
"""

import re
from pathlib import Path

from verify_mails import (DS, H, ChaCha20, lock, onion_step, orders_digest, roll,
                          salt_key_commitment, salt_v1, salt_v2, seed)


def self_test(doc: Path) -> int:
    """Every known-answer vector of the protocol page ("Known-answer vectors"), read from it."""
    page = doc.read_text(encoding="utf-8")
    kat = page[page.index("## Known-answer vectors"):]
    kat = kat[:kat.index("\n## ", 5)] if "\n## " in kat[5:] else kat
    checks, failed = 0, []

    def check(name, want, got):
        nonlocal checks
        checks += 1
        print(f"self-test {name}: {'ok' if want == got else 'MISMATCH'}")
        if want != got:
            failed.append(f"{name}: expected {want}, computed {got}")

    # ChaCha20 from a zero seed, stream 0, then ten d6 from streams 0 and 1.
    words = re.search(r"stream 0\): first words `([0-9a-f ]+)`", kat).group(1).split()
    rng = ChaCha20(bytes(32), 0)
    check("ChaCha20 first words", words, [f"{rng.next_u32():08x}" for _ in words])
    d6 = re.search(r"Ten d6 from that stream: `([\d,]+)`; from stream 1: `([\d,]+)`", kat)
    for j in (0, 1):
        want = [int(x) for x in d6.group(j + 1).split(",")]
        check(f"ten d6, stream {j}", want, roll(bytes(32), j, ("d", 6), 10))
    # The seats, canonical orders and log head of step 1 (written once, in the v1 prose).
    seats = re.search(r"seats in order `(\w+)`, `(\w+)`", kat).groups()
    orders = {s: o.replace("\\n", "\n") for s, o in re.findall(r"`(\w+)`: `([^`]+)`", kat)}
    head_input = re.search(r'log_head = H\("([^"]*)"\)', kat).group(1).encode()
    versions = re.split(r"^### (v\d+)\s*$", kat, flags=re.M)[1:]
    for version, body in zip(versions[::2], versions[1::2]):
        proto = f"despatch-dice/{version}"
        game = re.search(r"Game `([^`]+)`", body).group(1)
        c = bytes([int(re.search(r"c_0 = 0x([0-9a-f]{2}) × 32", body).group(1), 16)]) * 32
        n = int(re.search(r"`N = (\d+)`", body).group(1))
        z = re.search(r"`z = 0x([0-9a-f]{2}) × 32`", body)
        z = bytes([int(z.group(1), 16)]) * 32 if z else None
        onion = [c]
        for _ in range(n):
            onion.append(onion_step(proto, game, "host", onion[-1]))
        v1 = onion[n - 1]
        salts = {s: salt_v2(proto, game, z, 1, s) if z else salt_v1(proto, v1, s) for s in seats}
        digests = {s: orders_digest(proto, game, 1, s, salts[s], orders[s]) for s in seats}
        L = lock(proto, game, 1, H(head_input), [(s, digests[s]) for s in seats])
        S = seed(proto, L, v1)
        for block in re.findall(r"```\n(.*?)```", body, re.S):
            for line in block.strip().split("\n"):
                # `name  value`, or `stream j, … dice:  values`
                name, value = (line.split(":", 1) if ":" in line
                               else re.split(r"\s{2,}", line, maxsplit=1))
                name, value = name.strip(), value.strip()
                tag = f"{version} {name}"
                if name.startswith("anchor"):
                    check(tag, value, onion[n].hex())
                elif m := re.fullmatch(r"v_(\d+) = c_\d+", name):
                    check(tag, value, onion[n - int(m.group(1))].hex())
                elif name == "Z":
                    check(tag, value, salt_key_commitment(proto, game, z).hex())
                elif name == "head_0":  # "The log": head_0 = H(DS("log"))
                    check(tag, value, H(DS(proto, "log")).hex())
                elif m := re.fullmatch(r"(salt|D)\((\w+)\)", name):
                    got = (salts if m.group(1) == "salt" else digests)[m.group(2)]
                    check(tag, value, got.hex())
                elif name in ("L_1", "S_1"):
                    check(tag, value, (L if name == "L_1" else S).hex())
                elif m := re.fullmatch(r"stream (\d+), (\w+) d(\d+)( \(1-\d+\))?", name):
                    want = [int(x) for x in value.split(",")]
                    check(tag, want, roll(S, int(m.group(1)), ("d", int(m.group(3))), len(want)))
                else:
                    failed.append(f"{tag}: a vector this self-test does not know")
    # A page that lost its vectors must not pass: both versions, all their lines.
    if len(versions) < 4 or checks < 30:
        failed.append(f"only {checks} vectors found in {doc} ({len(versions) // 2} versions)")
    print(f"{'OK' if not failed else 'FAILED'}: {checks} known-answer vectors checked, "
          f"{len(failed)} mismatch(es)")
    for f in failed:
        print(f"MISMATCH: {f}")
    return 1 if failed else 0
