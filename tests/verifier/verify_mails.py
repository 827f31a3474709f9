#!/usr/bin/env python3
"""A second, independent verifier of Despatch's dice, written from docs/dice-protocol.md alone.

Given a folder of the mails one player received (a Maildir with cur/ and new/, or a folder of
.eml files), it re-derives from those mails only: the chain of host reveals v_k back to the
anchor of the welcome mail, each step's lock L_k and seed S_k, and every die of every dice
table; it also checks each mail's seal, each receipt's own orders digest, and the published
salt key against its commitment. Python 3.11 standard library only: SHA-256 from hashlib,
ChaCha20 and the die rule written out below, Ed25519 in ed25519.py beside it (and the mails
read by mail_text.py).
In a game whose welcome names a mail key K, every sealed mail's Mail-Signature must verify
under K; within the folder, one dice section per step, one head per log index and one anchor
line per game ("One game for every seat"). --compare holds several seats' folders against
each other the same way, after verifying each.

    python3 tests/verifier/verify_mails.py <folder> [<folder or mail> ...]
    python3 tests/verifier/verify_mails.py --compare <folder> <folder> [<folder> ...]
    python3 tests/verifier/verify_mails.py --self-test [docs/dice-protocol.md]

One line per step, then a summary line; exit status 1 on any mismatch (each named by mail,
step, field, expected and found), 2 when there is nothing to check.
"""

import hashlib
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # leave no __pycache__ in the repository
import ed25519  # noqa: E402  (beside this file, written from RFC 8032)
import strict_bound  # noqa: E402  (bound strict reveals, checked through the seats' openings)
from mail_text import (DIGEST, HEX, REWRAPPED, dice_section, hexval, mail_files,  # noqa: E402
                       parse_dice, parse_receipt, restore, seal_ok, show, signature_of, text_of,
                       unfold)

# ---------------------------------------------------------------------------------------------
# "Notation": H = SHA-256, big-endian fixed-width integers, lp(x) = u32(len(x)) || x,
# DS(t) = lp("despatch-dice/v2/" || t) ("despatch-dice/v1/" in v1 games).


def H(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def lp(x) -> bytes:
    if isinstance(x, str):
        x = x.encode()
    return u32(len(x)) + x


def DS(proto: str, t: str) -> bytes:
    return lp(f"{proto}/{t}")  # proto is "despatch-dice/v2" or "despatch-dice/v1"


# "The host onion": c_i = H(DS("onion") || lp(game_id) || lp(party) || lp(c_{i-1})).
def onion_step(proto, game, party, prev):
    return H(DS(proto, "onion"), lp(game), lp(party), lp(prev))


# "The salt key": Z = H(DS("salt-key") || lp(game_id) || lp(z)).
def salt_key_commitment(proto, game, z):
    return H(DS(proto, "salt-key"), lp(game), lp(z))


# "Orders digests and receipts": the v2 salt from z, the v1 salt from v_k, then D.
def salt_v2(proto, game, z, k, seat):
    return H(DS(proto, "salt"), lp(game), lp(z), u64(k), lp(seat))


def salt_v1(proto, v_k, seat):
    return H(DS(proto, "salt"), lp(v_k), lp(seat))


def orders_digest(proto, game, k, seat, salt, canonical):
    return H(DS(proto, "orders"), lp(game), u64(k), lp(seat), lp(salt), lp(canonical))


# "Lock, seed and rolls": L_k over the seats in the game's order (an NMR is an empty digest),
# S_k over L_k, v_k and the strict seats' reveals (none in default mode, m = 0).
def lock(proto, game, k, log_head, seats):
    body = [DS(proto, "lock"), lp(game), u64(k), lp(log_head), u32(len(seats))]
    for seat, digest in seats:
        body += [lp(seat), lp(digest or b"")]
    return H(*body)


def seed(proto, lock_k, v_k, strict=()):
    body = [DS(proto, "seed"), lp(lock_k), lp(v_k), u32(len(strict))]
    for seat, r in strict:
        body += [lp(seat), lp(r)]
    return H(*body)


# ---------------------------------------------------------------------------------------------
# ChaCha20 as ChaCha20Rng::from_seed(S_k) then set_stream(j): the 16-word state is the four
# constants, the 32-byte seed as eight little-endian words, a 64-bit block counter (words 12-13)
# and the 64-bit stream number j (words 14-15); each block gives 16 words, read in order.

MASK = 0xFFFFFFFF


def _rotl(x, n):
    return ((x << n) & MASK) | (x >> (32 - n))


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK; s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK; s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK; s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK; s[b] = _rotl(s[b] ^ s[c], 7)


class ChaCha20:
    def __init__(self, key: bytes, stream: int):
        self.key = [int.from_bytes(key[i:i + 4], "little") for i in range(0, 32, 4)]
        self.stream = stream
        self.block = 0
        self.words = []

    def _next_block(self):
        init = ([0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + self.key
                + [self.block & MASK, self.block >> 32, self.stream & MASK, self.stream >> 32])
        s = list(init)
        for _ in range(10):  # 20 rounds: a column round and a diagonal round, ten times
            _quarter(s, 0, 4, 8, 12); _quarter(s, 1, 5, 9, 13)
            _quarter(s, 2, 6, 10, 14); _quarter(s, 3, 7, 11, 15)
            _quarter(s, 0, 5, 10, 15); _quarter(s, 1, 6, 11, 12)
            _quarter(s, 2, 7, 8, 13); _quarter(s, 3, 4, 9, 14)
        self.words = [(x + y) & MASK for x, y in zip(s, init)]
        self.block += 1

    def next_u32(self) -> int:
        if not self.words:
            self._next_block()
        return self.words.pop(0)


# The die rule: lim = 2^32 - (2^32 mod s); draw until x < lim; the face index is x mod s.
# A die is ("d", s) valued 1..s, ("d0", s) valued 0..s-1, or ("list", faces).
def roll(seed_k: bytes, j: int, die, count: int):
    rng = ChaCha20(seed_k, j)
    kind, arg = die
    sides = len(arg) if kind == "list" else arg
    lim = 2**32 - (2**32 % sides)
    out = []
    for _ in range(count):
        x = rng.next_u32()
        while x >= lim:
            x = rng.next_u32()
        index = x % sides
        out.append(arg[index] if kind == "list" else index + (1 if kind == "d" else 0))
    return out


def journal_die(faces):
    """A die as the journal records it: {"kind": "numbered"|"zero_based"|"list", …}."""
    if faces["kind"] == "list":
        return ("list", faces["values"])
    return ("d0" if faces["kind"] == "zero_based" else "d", faces["sides"])


def mail_message(game: str, digest: bytes) -> bytes:
    """M = DS("mail-seal") || lp(game_id) || lp(d), DS always the v2 tag."""
    return DS("despatch-dice/v2", "mail-seal") + lp(game) + lp(digest)


class Verifier:
    def __init__(self):
        self.findings = []
        self.games = {}  # game id -> what its mails said: protocol, anchors, Z, z, steps
        self.counts = {"mails": 0, "seals": 0, "receipts": 0, "journal events": 0,
                       "journal steps": 0, "journal rolls": 0, "journal dice": 0,
                       "digests opened": 0, "journal bound reveals": 0}
        # (game, log head index, head, file, whether it is a seat's opening, which comes after
        # the game-over mail): "The story of a player's mails"
        self.footers = []
        self.journals = []  # (text, where): attached to a game-over mail, or given as a file
        self.sealed = []  # (game, file, Mail-Digest bytes or None, signature or None)
        # "One game for every seat": what the folder holds that is the same for every seat,
        # (kind, game, step or index) -> (value, where it was read); --compare holds two
        # folders' to each other.
        self.view = {}

    def hold(self, key, value, where, place, what):
        """One value per key in this folder: a second, different one is equivocation."""
        seen = self.view.setdefault(key, (value, where))
        if seen[0] != value:
            self.bad(place, "equivocation", f"one {what} ({seen[1]}: {show(seen[0])})",
                     f"another ({where}: {show(value)})")

    def bad(self, where, field, expected, found):
        self.findings.append(f"{where}, {field}: expected {expected}, found {found}")

    def game(self, gid):
        return self.games.setdefault(gid, {"proto": None, "anchors": [], "Z": None, "z": None,
                                           "steps": {}, "key": None, "bound": False,
                                           "strict anchors": {}, "openings": []})

    def read(self, path: Path):
        _, text, msg = text_of(path)
        if DIGEST not in text:
            if re.search(r"^[> ]*Mail-Digest:", text, re.M):  # the client broke the digest line
                self.counts["mails"] += 1
                self.bad(f"mail {path.name}", "Mail-Digest", "a seal that can be read", REWRAPPED)
            return  # not a sealed Despatch mail
        # "Lines of 72 columns": a mail a client re-wrapped is read back when the seal says how;
        # one it cannot be is named, never taken for a mail without dice.
        if not seal_ok(text)[0]:
            restored = restore(text)
            if restored == "unreadable":
                self.counts["mails"] += 1
                self.bad(f"mail {path.name}", "Mail-Digest", "a seal that can be read", REWRAPPED)
                return
            if restored:
                text = restored
        raw, text = text, unfold(text)
        foot = re.findall(r"^Despatch · game (\S+) · log head #(\d+) ([0-9a-f]+)", text, re.M)
        if not foot:
            return
        gid = foot[-1][0]
        g = self.game(gid)
        self.counts["mails"] += 1
        self.footers.append((gid, int(foot[-1][1]), foot[-1][2], path.name,
                             strict_bound.is_opening(text)))
        index = int(foot[-1][1])
        self.hold(("head", gid, index), foot[-1][2], f"mail {path.name}",
                  f"game {gid} log head #{index}", "head")
        for part in msg.walk():
            if part.get_filename() == "journal.jsonl":
                self.journals.append((part.get_payload(decode=True).decode("utf-8"),
                                      f"mail {path.name}, attached journal"))
        dice = None
        try:
            dice = parse_dice(text)
        except ValueError as e:
            self.bad(f"mail {path.name}", "DICE", "a readable dice section", e)
        where = f"mail {path.name}" + (f" (step {dice['step']})" if dice else "")
        ok, claimed, actual = seal_ok(raw)
        if ok:
            self.counts["seals"] += 1
        else:  # "The seal of a mail": the text was changed after it was sealed
            self.bad(where, "Mail-Digest", f"sha256 of the text {actual}", claimed)
        digest = bytes.fromhex(claimed) if re.fullmatch(HEX, claimed) else None
        self.sealed.append((gid, where, digest, signature_of(raw)))
        # The welcome mail (and a "New dice anchor" mail) commits to the onion: "Anchor A = ...",
        # and in a signed game names the mail key K inside the line's brackets.
        for a, frm, key in re.findall(r"Anchor A = " + HEX + r"\s+\(from step (\d+), onion "
                                      r"length \d+(?:, mail key K = ([0-9a-f]{64}))?\)", text):
            if (int(frm), hexval(a)) not in g["anchors"]:
                g["anchors"].append((int(frm), hexval(a)))
            self.hold(("anchor", gid, int(frm)), a, f"mail {path.name}",
                      f"game {gid} anchor line (from step {frm})", "anchor")
            if key:
                self.hold(("key", gid, 0), key, f"mail {path.name}", f"game {gid} mail key",
                          "mail key K")
                g["key"] = g["key"] or hexval(key)
        # A strict lock mail's L_k is the game's word for the step's lock: one per step, the
        # same as the results mail's (a lock shown early to learn a reveal is equivocation).
        for lg, lk, lv in re.findall(r"^STRICT DICE LOCK \(game (\S+), step (\d+),[^)\n]*\)\n"
                                     r"L_\d+ = ([0-9a-f]{64})", text, re.M):
            if lg == gid:
                self.hold(("lock", gid, int(lk)), lv, f"mail {path.name}",
                          f"game {gid} lock of step {lk}", "lock")
        # Bound strict reveals (S11): the anchors mail's mark and anchors, a seat's opening.
        for o in strict_bound.read_mail(g, text, path.name):
            self.hold(("opening", gid, o["seat"], o["j"]), o["e"].hex(), f"mail {path.name}",
                      f"game {gid} opening of {o['seat']} reveal {o['j']}", "element")
        proto = re.search(r"comes from (despatch-dice/v\d+)", text)
        if proto:
            g["proto"] = proto.group(1)
        for field, key in (("Salt key Z = ", "Z"), ("Salt key z = ", "z")):
            m = re.search("^ *" + field + HEX, text, re.M)
            if m:
                g[key] = hexval(m.group(1))
        if dice:
            g["proto"] = g["proto"] or dice["proto"]
            if dice["proto"] != g["proto"]:
                self.bad(where, "protocol", g["proto"], dice["proto"])
            # "One game for every seat": one dice section per step, one head per log index.
            k = dice["step"]
            self.hold(("step", gid, k), dice_section(dice), f"mail {path.name}",
                      f"game {gid} step {k}", "dice section")
            self.hold(("lock", gid, k), dice["L"].hex(), f"mail {path.name}",
                      f"game {gid} lock of step {k}", "lock")
            if dice.get("log_head_index") is not None and dice["log_head"]:
                i = dice["log_head_index"]
                self.hold(("head", gid, i), dice["log_head"].hex(),
                          f"mail {path.name} (lock input of step {k})",
                          f"game {gid} log head #{i}", "head")
            dice["file"] = path.name
            g["steps"].setdefault(k, dice)
        r = parse_receipt(text)
        if r and r["salt"]:
            self.receipt(gid, g, r, path.name)

    def receipt(self, gid, g, r, name):
        """"Orders digests and receipts": the receipt's own D from its orders and salt."""
        proto = g["proto"] or "despatch-dice/v2"
        d = orders_digest(proto, gid, r["step"], r["seat"], r["salt"], r["orders"])
        if d != r["digest"]:
            self.bad(f"mail {name} (receipt, step {r['step']})", "Digest D", d.hex(),
                     r["digest"].hex())
        else:
            self.counts["receipts"] += 1

    def chain(self, where, proto, gid, anchors, previous, k, v_k):
        """"The host onion": step(v_k) == v_{k-1}, v_0 = A; a renewed onion ("Before the onion
        runs out") restarts at its own anchor from its first step. Returns the words for it."""
        anchors = [(f, a) for f, a in anchors if f <= k]
        if not anchors:
            self.bad(where, f"v_{k}", "a welcome mail with the anchor A", "none")
            return "no anchor in the folder"
        frm, anchor = max(anchors)
        prev = [(p, v) for p, v in previous if frm <= p < k]
        hops, target, what = (k - max(prev)[0], max(prev)[1], f"v_{max(prev)[0]}") if prev \
            else (k - frm + 1, anchor, f"the anchor A (from step {frm})")
        v = v_k
        for _ in range(hops):
            v = onion_step(proto, gid, "host", v)
        if v != target:
            self.bad(where, f"v_{k}", f"a value hashing in {hops} step(s) to {what} "
                     f"{target.hex()}", f"{v_k.hex()} (it hashes to {v.hex()})")
        return f"v_{k} hashes to {what}"

    def check_rolls(self, where, seed_k, rolls):
        """"Lock, seed and rolls": roll request j uses stream j of S_k. Returns the dice count."""
        dice = 0
        for i, (j, die, results, label) in enumerate(rolls):
            if j != i:
                self.bad(where, f"roll request {j} ({label})", f"request number {i}", j)
            again = roll(seed_k, j, die, len(results))
            for n, (want, got) in enumerate(zip(again, results)):
                if want != got:
                    self.bad(where, f"die {n + 1} of roll {j} ({label})", want, got)
            dice += len(results)
        return dice

    def check_step(self, gid, g, d, previous):
        """One step: v_k back along the onion, L_k, S_k and every die; prints the step's line.
        Returns (rolls, dice, whether v_k chained back)."""
        k, proto, where = d["step"], d["proto"], f"mail {d['file']} (step {d['step']})"
        before = len(self.findings)
        chain = self.chain(where, proto, gid, g["anchors"], previous, k, d["v"])
        chained = len(self.findings) == before
        L = lock(proto, gid, k, d["log_head"], d["seats"])
        if L != d["L"]:
            self.bad(where, f"L_{k}", L.hex(), d["L"].hex())
        S = seed(proto, d["L"], d["v"], d["strict"])
        if S != d["S"]:
            self.bad(where, f"S_{k}", S.hex(), d["S"].hex())
        dice = self.check_rolls(where, d["S"], d["rolls"])
        verdict = "ok" if len(self.findings) == before else "MISMATCH"
        print(f"step {k} ({gid}, {proto}): {chain}; L_{k}, S_{k}; "
              f"{len(d['rolls'])} rolls, {dice} dice: {verdict}")
        return len(d["rolls"]), dice, chained

    def journal(self, text, where):
        """The journal a game-over mail attaches ("The story of a player's mails"), replayed for
        its dice only (the rules are `despatch verify`'s): "The log" chain of heads, each lock's
        log head and inputs, the onion, each seed and die, and every orders digest it opens
        (with the published salt key z in v2, with v_k in v1)."""
        lines = text.replace("\r\n", "\n").rstrip("\n").split("\n")
        events = [json.loads(line) for line in lines]
        gid, proto = events[0]["game"], events[0].get("protocol", "despatch-dice/v1")
        g = self.game(gid)
        g["proto"] = g["proto"] or proto
        anchors = [(1, hexval(events[0]["anchor"]))]
        if g["anchors"] and anchors[0] not in g["anchors"]:
            self.bad(f"{where}, event 0", "anchor", "the anchor of the welcome mail",
                     events[0]["anchor"])
        # "The signature of a mail": K is in the creation event too; it must be the welcome's.
        key = events[0].get("mail_key")
        if key and g["key"] and hexval(key) != g["key"]:
            self.bad(f"{where}, event 0", "mail_key",
                     f"the mail key K of the welcome mail {g['key'].hex()}", key)
        elif key:
            g["key"] = hexval(key)
        z = next((hexval(e["salt_key"]) for e in events if e.get("salt_key")), None)
        head, heads, locks, reveals, subs = H(DS(proto, "log")), [], {}, [], []
        # Strict games: the strict seats in their order, and each step's reveals r_seat_k.
        strict_seats, strict_r = [], {}
        bound = strict_bound.JournalBound(sys.modules[__name__], self, gid, proto, where)
        counts = self.counts
        for i, (line, e) in enumerate(zip(lines, events)):
            place, t, k = f"{where}, event {i} ({e['type']})", e["type"], e.get("step")
            before, head = head, H(DS(proto, "log"), lp(head), lp(line.encode()))
            heads.append(head)
            if t == "onion_renewed":
                anchors.append((e["from_step"], hexval(e["anchor"])))
            elif t == "strict_mode":
                strict_seats = [x["seat"] for x in e["seats"]]
                bound.strict_mode(e)
            elif t == "reveal":
                strict_r[(k, e["seat"])] = hexval(e["reveal"])
                bound.reveal(e, locks)
            elif t == "strict_opened":  # after game_ended, in a bound game (S11)
                bound.opened(place, e)
            elif t in ("submission", "standing"):  # standing orders sent outside a step: SO1
                subs.append(e)
            elif t == "lock":
                if hexval(e["log_head"]) != before:
                    self.bad(place, "log_head", before.hex(), e["log_head"])
                seats = [(x["seat"], hexval(x["digest"]) if x["digest"] else None)
                         for x in e["seats"]]
                L = lock(proto, gid, k, hexval(e["log_head"]), seats)
                if L.hex() != e["lock"]:
                    self.bad(place, f"L_{k}", L.hex(), e["lock"])
                locks[k] = hexval(e["lock"])
            elif t == "results":
                v = hexval(e["reveal"])
                self.chain(place, proto, gid, anchors, reveals, k, v)
                reveals.append((k, v))
                strict = [(seat, strict_r.get((k, seat), b"")) for seat in strict_seats]
                S = seed(proto, locks.get(k, b""), v, strict)
                if S.hex() != e["seed"]:
                    self.bad(place, f"S_{k}", S.hex(), e["seed"])
                rolls = [(r["j"], journal_die(r["faces"]), r["results"], r["label"])
                         for r in e["rolls"]]
                counts["journal dice"] += self.check_rolls(place, hexval(e["seed"]), rolls)
                counts["journal steps"] += 1
                counts["journal rolls"] += len(rolls)
                mail = g["steps"].get(k)
                if mail and (mail["L"], mail["v"], mail["S"]) != (locks.get(k), v, hexval(e["seed"])):
                    self.bad(f"mail {mail['file']} (step {k})", f"L_{k}/v_{k}/S_{k}",
                             "the values of the attached journal", "other values")
                # The step's digests open now in v1 (its salt comes from v_k), or with z in v2.
                for sub in [x for x in subs if x["step"] == k]:
                    salt = salt_v1(proto, v, sub["seat"]) if proto.endswith("v1") else \
                        salt_v2(proto, gid, z, k, sub["seat"]) if z else None
                    if salt is None:
                        continue
                    D = orders_digest(proto, gid, k, sub["seat"], salt, sub["orders"])
                    if D.hex() != sub["digest"]:
                        self.bad(f"{where}, submission of {sub['seat']} for step {k}",
                                 "digest D", D.hex(), sub["digest"])
                    counts["digests opened"] += 1
        counts["journal events"] += len(events)
        counts["journal bound reveals"] += bound.checked
        g["heads"] = heads

    def signatures(self):
        """"The signature of a mail": in a game with a mail key K, every sealed mail's
        Mail-Signature verifies under K over M; a game without K is an older, unsigned one,
        unless one of its mails is signed (then its key is missing from the folder)."""
        checked = {}
        for gid, g in sorted(self.games.items()):
            key = g["key"]
            if key is not None and ed25519.decode_point(key) is None:
                self.bad(f"game {gid}", "mail key K", "a valid Ed25519 point", key.hex())
                g["key"] = None
        for gid, where, digest, sig in self.sealed:
            key = self.games[gid]["key"]
            if key is None:
                if sig is not None:
                    self.bad(where, "Mail-Signature", "the game's mail key K on the welcome's "
                             "anchor line (or in the journal)", "a signed mail, and no key")
                continue
            if sig is None:
                self.bad(where, "Mail-Signature", "a signature by the game's mail key K on "
                         "the line after Mail-Digest", "none (missing)")
            elif digest is None or not ed25519.verify(key, mail_message(gid, digest), sig):
                self.bad(where, "Mail-Signature", f"a signature by the mail key K = {key.hex()}",
                         "one that does not verify (the mail was changed, or signed by another key)")
            else:
                checked[gid] = checked.get(gid, 0) + 1
        for gid, g in sorted(self.games.items()):
            print(f"game {gid}: " + (f"{checked.get(gid, 0)} mails signed by its mail key "
                                     f"K = {g['key'].hex()}" if g["key"] else
                                     "no mail key on its anchor line (a game made before mails "
                                     "were signed): signatures not checked"))
        return sum(checked.values())

    def finish(self):
        seen = set()
        for text, where in self.journals:  # each game-over mail of a game carries the same one
            if text not in seen:
                seen.add(text)
                self.journal(text, where)
        signed = self.signatures()
        # "The story of a player's mails": each footer's head_i is the journal's head after event i.
        matched = 0
        for gid, i, head, name, opening in self.footers:
            heads = self.games[gid].get("heads")
            if heads is None or (opening and i >= len(heads)):
                continue  # no journal; or a seat's opening, sent after the journal's end (S11)
            if i >= len(heads) or heads[i].hex() != head:
                self.bad(f"mail {name}", f"log head #{i}",
                         heads[i].hex() if i < len(heads) else f"one of {len(heads)} events", head)
            else:
                matched += 1
        # A dice section's lock-input log_head is the journal's head at the index it prints.
        for (kind, gid, *key), (head, where) in sorted(self.view.items()):
            heads, i = self.games[gid].get("heads"), key[0]
            if kind == "head" and "lock input" in where and heads is not None:
                if i >= len(heads) or heads[i].hex() != head:
                    self.bad(where, f"log head #{i}", heads[i].hex() if i < len(heads) else
                             f"one of {len(heads)} events", head)
        steps = rolls = dice = chained = bound = 0
        for gid, g in sorted(self.games.items()):
            previous = []
            for k in sorted(g["steps"]):
                d = g["steps"][k]
                r, n, ok = self.check_step(gid, g, d, previous)
                previous.append((k, d["v"]))
                steps, rolls, dice, chained = steps + 1, rolls + r, dice + n, chained + ok
            bound += strict_bound.check_mails(sys.modules[__name__], self, gid, g)
            if g["z"] and g["Z"]:  # "The salt key": the published z opens the commitment Z
                Z = salt_key_commitment(g["proto"], gid, g["z"])
                if Z != g["Z"]:
                    self.bad(f"game {gid}", "salt key z", f"a key hashing to Z = {g['Z'].hex()}",
                             f"one hashing to {Z.hex()}")
        c = self.counts
        print(f"{'OK' if not self.findings else 'FAILED'}: {len(self.games)} game(s), "
              f"{c['mails']} mails, {c['seals']} seals, {signed} signatures checked, "
              f"{steps} steps, {steps} locks, "
              f"{steps} seeds, {chained} reveals chained to the anchor, {rolls} rolls, "
              f"{dice} dice checked, {bound} bound reveals checked, "
              f"{c['receipts']} receipts opened, "
              + (f"{c['journal events']} journal events, {c['journal steps']} journal steps, "
                 f"{c['journal rolls']} journal rolls, {c['journal dice']} journal dice, "
                 f"{c['digests opened']} digests opened, "
                 f"{c['journal bound reveals']} journal bound reveals checked, "
                 f"{matched} log heads matched, "
                 if self.journals else "")
              + f"{len(self.findings)} mismatch(es)")
        for f in self.findings:
            print(f"MISMATCH: {f}")
        return steps + c["journal steps"]


PLACES = {"head": "game {} log head #{}", "step": "game {} step {}",
          "anchor": "game {} anchor line (from step {})", "key": "game {} mail key",
          "lock": "game {} lock of step {}", "opening": "game {} opening of {} reveal {}"}


def compare(views):
    """"One game for every seat": every value two seats' folders both hold must be the same.
    views: [(folder, Verifier)]. Returns the findings; a pair that shares nothing is one."""
    findings, shared = [], 0
    for n, (fa, a) in enumerate(views):
        for fb, b in views[n + 1:]:
            common = sorted(set(a.view) & set(b.view), key=lambda k: (k[1], k[0], k[2:]))
            if not common:
                findings.append(f"compare, folders {fa} and {fb}: expected a game, step or log "
                                "head both hold, found nothing in common (nothing compared)")
            shared += len(common)
            for key in common:
                (va, wa), (vb, wb) = a.view[key], b.view[key]
                if va != vb:
                    place = PLACES[key[0]].format(*key[1:])
                    findings.append(f"{place}, split view: expected the same for every seat, "
                                    f"found {show(va)} ({fa}, {wa}) and {show(vb)} ({fb}, {wb})")
    print(f"{'OK' if not findings else 'FAILED'}: compare of {len(views)} folders, "
          f"{shared} values held in common, {len(findings)} mismatch(es)")
    for f in findings:
        print(f"MISMATCH: {f}")
    return findings


def run(args):
    """Verifies one folder (or several files) as one seat's; (Verifier, steps checked)."""
    v = Verifier()
    for p in mail_files(args):
        if p.suffix == ".jsonl":  # a journal on its own, as a game store keeps it
            v.journals.append((p.read_text(encoding="utf-8"), f"journal {p}"))
        else:
            v.read(p)
    return v, v.finish()


def main(argv):
    if argv and argv[0] == "--self-test":
        from known_answers import self_test  # beside this file
        return self_test(Path(argv[1]) if len(argv) > 1 else
                         Path(__file__).resolve().parents[2] / "docs" / "dice-protocol.md")
    if not argv:
        print(__doc__.strip())
        return 2
    if argv[0] == "--compare":
        if len(argv) < 3:
            print("--compare needs two folders or more, one per seat")
            return 2
        views, failed = [], False
        for folder in argv[1:]:
            print(f"== {folder}")
            v, _ = run([folder])
            views.append((folder, v))
            failed |= bool(v.findings)
        print(f"== {len(views)} folders held against each other")
        return 1 if compare(views) or failed else 0
    v, steps = run(argv)
    if v.findings:
        return 1
    # A game that ended before any step resolved (abandoned by the organiser, strict-dice.md
    # S10) rolled nothing, but its game-over mail's journal was replayed: that is a check.
    if steps == 0 and not v.counts["journal events"]:
        print("nothing to check: no results mail with a dice section, and no journal")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
