"""Strict reveals bound to their lock (docs/dice-protocol.md, "Strict reveals bound to their
lock", ruling S11), for verify_mails.py: a bound game's `strict r` values are not onion elements,
so they are checked only through each seat's opening, in a folder of mails (the `strict open`
lines of the opening mails, against the anchors mail and the results mails) and in a journal
(its `strict_opened` events, against its own `reveal` and `lock` events). Written from the
protocol page alone; it reads and reports, and changes nothing.
"""

import re

BOUND_MARK = "Strict reveals are bound to their lock"
OPENED_HEADING = re.compile(r"^STRICT DICE OPENED$", re.M)
OPEN_LINE = re.compile(r"^strict open (\S+) reveal (\d+) step (\d+) = ([0-9a-f]{64})$", re.M)
ANCHOR_LINE = re.compile(r"^ *Strict anchor (\S+) = ([0-9a-f]{64})", re.M)


def bound_reveal(vm, proto, game, seat, j, e_j, lock_k):
    """r = H(DS("strict-bind") || lp(game_id) || lp(seat) || u64(j) || lp(e_j) || lp(L_k))."""
    return vm.H(vm.DS(proto, "strict-bind"), vm.lp(game), vm.lp(seat), vm.u64(j), vm.lp(e_j),
                vm.lp(lock_k))


def read_mail(g, text, name):
    """What one mail says about bound reveals: the mark of a bound game (the anchors mail), the
    strict seats' anchors, and an opening's elements. Returns the openings read, for the
    verifier to hold (one element per seat and reveal, "One game for every seat")."""
    if BOUND_MARK in text:
        g["bound"] = True
    for seat, a in ANCHOR_LINE.findall(text):
        g["strict anchors"].setdefault(seat, bytes.fromhex(a))
    found = []
    for seat, j, k, e in OPEN_LINE.findall(text):
        o = {"seat": seat, "j": int(j), "k": int(k), "e": bytes.fromhex(e), "file": name}
        g["openings"].append(o)
        found.append(o)
    return found


def is_opening(text):
    """A seat's opening comes after the game-over mail, so past the end of the journal it
    attaches: its log head is not held against that journal (it is still sealed and signed)."""
    return OPENED_HEADING.search(text) is not None


def check_mails(vm, v, gid, g):
    """Each seat's opened elements: e_1 steps once to the seat's strict anchor and each e_j once
    to e_{j-1}; every results mail of the folder whose step e_j served has `strict r <seat>` =
    bound_reveal(e_j, L_k). In a bound game a results mail's reveal for a step the seat's
    opening does not list is a mismatch, and a seat with reveals and no opening is said to be
    unchecked. Returns the number of bound reveals checked. Linear in the openings and steps."""
    proto = g["proto"] or "despatch-dice/v2"
    checked = 0
    by_seat = {}
    for o in g["openings"]:
        by_seat.setdefault(o["seat"], {}).setdefault(o["j"], o)  # a second one is equivocation
    for seat in sorted(by_seat):
        opened = [by_seat[seat][j] for j in sorted(by_seat[seat])]
        anchor = g["strict anchors"].get(seat)
        if anchor is None:
            v.bad(f"game {gid} (opening of {seat})", f"strict open {seat}",
                  "the anchors mail with the seat's strict anchor", "none in the folder")
            continue
        above, what = anchor, f"{seat}'s strict anchor"
        for n, o in enumerate(opened, 1):
            place = f"mail {o['file']} (opening of {seat})"
            if o["j"] != n:
                v.bad(place, f"reveal {o['j']}", f"reveal {n} (elements numbered 1, 2, … in "
                      "a row)", f"reveal {o['j']}")
                break
            got = vm.onion_step(proto, gid, seat, o["e"])
            if got != above:
                v.bad(place, f"reveal {n}", f"e_{n} hashing once to {what} {above.hex()}",
                      f"{o['e'].hex()} (it hashes to {got.hex()})")
                break  # the elements above it cannot be trusted to be the seat's
            above, what = o["e"], f"e_{n}"
            d = g["steps"].get(o["k"])
            if d is None:
                continue  # that step's results mail is not in this folder
            r = dict(d["strict"]).get(seat, b"")
            want = bound_reveal(vm, proto, gid, seat, n, o["e"], d["L"])
            if r != want:
                v.bad(f"mail {d['file']} (step {o['k']})", f"strict r {seat}",
                      f"H(strict-bind, …) of {seat}'s opened e_{n} and L_{o['k']} = "
                      f"{want.hex()}", r.hex() or "-")
            else:
                checked += 1
    unchecked = []
    if g.get("bound"):
        for k in sorted(g["steps"]):
            d = g["steps"][k]
            for seat, r in d["strict"]:
                if not r:
                    continue
                if seat not in by_seat:
                    if seat not in unchecked:
                        unchecked.append(seat)
                elif not any(o["k"] == k for o in by_seat[seat].values()):
                    v.bad(f"mail {d['file']} (step {k})", f"strict r {seat}",
                          f"a reveal {seat}'s opening lists", f"{r.hex()}, for a step "
                          f"{seat}'s opening does not list")
        for seat in unchecked:
            print(f"game {gid}: {seat}'s bound strict reveals are not checked: its opening "
                  "is not in the folder (it did not open its onion, or the mail is missing)")
    return checked


class JournalBound:
    """The journal's side: `strict_mode` with `onion_index = "bound"`, each seat's `reveal`
    events in order (its reveal numbers 1, 2, …), the `lock` events, then each
    `strict_opened {seat, reveal, element}` after `game_ended`, checked as an opening mail is."""

    def __init__(self, vm, v, gid, proto, where):
        self.vm, self.v, self.gid, self.proto, self.where = vm, v, gid, proto, where
        self.bound, self.anchors, self.given, self.checked = False, {}, {}, 0

    def strict_mode(self, e):
        self.bound = e.get("onion_index") == "bound"
        self.anchors = {x["seat"]: bytes.fromhex(x["anchor"]) for x in e["seats"]}

    def reveal(self, e, locks):
        if self.bound:
            lock_k = locks.get(e["step"], bytes.fromhex(e["lock"]))
            self.given.setdefault(e["seat"], []).append((e["step"], lock_k,
                                                         bytes.fromhex(e["reveal"])))

    def opened(self, place, e):
        vm, v, seat = self.vm, self.v, e["seat"]
        if not self.bound:
            v.bad(place, "type", "no strict_opened in a game whose reveals are not bound "
                  "(onion_index \"bound\")", "one")
            return
        given, J = self.given.get(seat, []), e["reveal"]
        if J != len(given) or not given:
            v.bad(place, "reveal", f"the {len(given)} reveal(s) the journal took from {seat}", J)
            return
        el = bytes.fromhex(e["element"])
        for j in range(J, 0, -1):  # from e_J down the onion: e_{j-1} = step(e_j)
            k, lock_k, r = given[j - 1]
            want = bound_reveal(vm, self.proto, self.gid, seat, j, el, lock_k)
            if want != r:
                v.bad(f"{place}, reveal {j} (step {k})", f"strict r {seat}",
                      f"H(strict-bind, …) of e_{j} and L_{k} = {want.hex()}", r.hex())
            else:
                self.checked += 1
            el = vm.onion_step(self.proto, self.gid, seat, el)
        if el != self.anchors.get(seat):
            v.bad(place, "element", f"e_{J} hashing in {J} steps to {seat}'s strict anchor",
                  f"{e['element']} (it hashes to {el.hex()})")

    def unopened(self, opened_seats):
        return [s for s in self.given if s not in opened_seats]
