"""The known-answer vectors of docs/dice-protocol.md, read from the page itself and recomputed
with verify_mails.py's own SHA-256 layouts, ChaCha20 and die rule (`verify_mails.py --self-test`).
"""

import hashlib
import re
from pathlib import Path

import ed25519
from strict_bound import bound_reveal
import verify_mails
from verify_mails import (DS, H, ChaCha20, lock, mail_message, onion_step, orders_digest, roll,
                          salt_key_commitment, salt_v1, salt_v2, seed)

# RFC 8032, section 7.1, TEST 1 to TEST 3: (secret key, public key, message, signature).
RFC8032 = [
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555f"
     "b8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da08"
     "5ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18"
     "ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
]


def signature_vectors(page: str, check):
    """RFC 8032's TEST 1-3, then the page's mail-signature vector ("The signature of a mail"):
    K from k, M from the game and d = H("example"), the signature under K; and two forgeries
    that must fail: one bit of the signature flipped, and S replaced by S + L (S < L)."""
    for n, (sk, pk, msg, sig) in enumerate(RFC8032, 1):
        check(f"RFC 8032 test {n} public key", pk, ed25519.public_key(bytes.fromhex(sk)).hex())
        check(f"RFC 8032 test {n} signature verifies", True,
              ed25519.verify(bytes.fromhex(pk), bytes.fromhex(msg), bytes.fromhex(sig)))
    sec = page[page.index("### The signature of a mail"):]
    k = bytes([int(re.search(r"`k = 0x([0-9a-f]{2}) × 32`", sec).group(1), 16)]) * 32
    game = re.search(r'game `([^`]+)`, `d = H\("([^"]*)"\)`', sec)
    block = re.search(r"```\nK +(.*?)```", sec, re.S).group(1)
    names = re.split(r"\n(M|sig) +", "K " + block)
    values = {"K": names[0][2:]} | dict(zip(names[1::2], names[2::2]))
    values = {n: re.sub(r"\s+", "", v) for n, v in values.items()}
    K, M = ed25519.public_key(k), mail_message(game.group(1), H(game.group(2).encode()))
    sig = bytes.fromhex(values["sig"])
    check("mail signature K", values["K"], K.hex())
    check("mail signature M", values["M"], M.hex())
    check("mail signature verifies", True, ed25519.verify(K, M, sig))
    flipped = sig[:10] + bytes([sig[10] ^ 1]) + sig[11:]
    check("mail signature, one bit flipped, fails", False, ed25519.verify(K, M, flipped))
    s_plus_l = (int.from_bytes(sig[32:], "little") + ed25519.L).to_bytes(32, "little")
    check("mail signature, S + L, fails", False, ed25519.verify(K, M, sig[:32] + s_plus_l))


def folded_vector(page: str, check) -> int:
    """"Lines of 72 columns": the worked example's lines are at most 72 columns; its digest is
    the SHA-256 of the folded text above Mail-Digest; unfolded, its footer and Parts entry read
    as before folding; its signature verifies under K of k = 0x33 x 32. Returns the checks."""
    from mail_text import normalise, seal_ok, signature_of, unfold
    sec = page[page.index("### Lines of 72 columns"):page.index("### The signature of a mail")]
    text = re.search(r"```\n(Mikasa.*?)```", sec, re.S).group(1)
    check("folded example: widest line", True, max(len(x) for x in text.split("\n")) <= 72)
    check("folded example: Mail-Digest", True, seal_ok(text)[0])
    flat = unfold(normalise(text))
    head = hashlib.sha256(b"example").hexdigest()
    check("folded example: unfolded footer", True,
          f"Despatch · game yellow-sea-1904 · log head #7 {head}" in flat.split("\n"))
    html = hashlib.sha256(b"<p>Mikasa fires: 3 hits.</p>\n").hexdigest()
    check("folded example: unfolded Parts entry", True, f"  turn.html={html}" in flat.split("\n"))
    d = bytes.fromhex(seal_ok(text)[1])
    K = ed25519.public_key(bytes([0x33]) * 32)
    check("folded example: Mail-Signature", True,
          ed25519.verify(K, mail_message("yellow-sea-1904", d), signature_of(text) or b""))
    return 5


def bound_vectors(page: str, check, failed, L1, v1) -> int:
    """"Strict reveals bound to their lock": the seat's onion elements e_j = c_{N-j}, its bound
    reveals r for L_1 (the v2 case's) and for L' = H("another lock"), and S_1 with that seat's
    r for L_1 (m = 1). A name is on one line, its value on the same line or the next. Returns
    how many it checked."""
    sec = page[page.index("### Strict reveals bound to their lock"):]
    sec = sec[:sec.index("\n## ")]
    proto = "despatch-dice/v2"
    params = re.search(r"game\s+`([^`]+)`, seat `([^`]+)`, `c_0 = 0x([0-9a-f]{2}) × 32`, "
                       r"`N = (\d+)`", sec)
    game, seat, n = params.group(1), params.group(2), int(params.group(4))
    onion = [bytes([int(params.group(3), 16)]) * 32]
    for _ in range(n):
        onion.append(onion_step(proto, game, seat, onion[-1]))
    block = re.search(r"Known answer.*?```\n(.*?)```", sec, re.S).group(1)
    rows = []
    for line in block.strip().split("\n"):
        if re.fullmatch(r"\s+[0-9a-f]{64}", line) and rows:  # a long name's value, below it
            rows[-1][1] = line.strip()
        else:
            parts = re.split(r"\s{2,}", line.strip(), maxsplit=1)
            rows.append([parts[0], parts[1] if len(parts) > 1 else ""])
    others = {"L_1": L1}
    checks = 0
    for name, value in rows:
        tag = f"bound {name}"
        checks += 1
        if m := re.fullmatch(r"e_(\d+) = c_(\d+)", name):
            check(tag, value, onion[n - int(m.group(1))].hex())
        elif m := re.fullmatch(r"(L') = H\(\"([^\"]*)\"\)", name):
            others[m.group(1)] = H(m.group(2).encode())
            check(tag, value, others[m.group(1)].hex())
        elif m := re.fullmatch(r"r \(j=(\d+), (L'|L_1)\)", name):
            j = int(m.group(1))
            r = bound_reveal(verify_mails, proto, game, seat, j, onion[n - j], others[m.group(2)])
            check(tag, value, r.hex())
        elif re.fullmatch(r"S_1 \(m=1, " + seat + r"'s r for L_1\)", name):
            r = bound_reveal(verify_mails, proto, game, seat, 1, onion[n - 1], L1)
            check(tag, value, seed(proto, L1, v1, [(seat, r)]).hex())
        else:
            checks -= 1
            failed.append(f"{tag}: a vector this self-test does not know")
    return checks


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
        if version == "v2":
            v2_case = (L, v1)
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
    signature_vectors(page, check)
    folded_vector(page, check)
    bound = bound_vectors(page, check, failed, *v2_case)
    # A page that lost its vectors must not pass: both versions, all their lines.
    if len(versions) < 4 or checks < 46 or bound < 7:
        failed.append(f"only {checks} vectors found in {doc} ({len(versions) // 2} versions, "
                      f"{bound} of bound reveals)")
    print(f"{'OK' if not failed else 'FAILED'}: {checks} known-answer vectors checked, "
          f"{len(failed)} mismatch(es)")
    for f in failed:
        print(f"MISMATCH: {f}")
    return 1 if failed else 0
