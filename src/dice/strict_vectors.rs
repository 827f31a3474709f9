//! Strict-mode vectors (m > 0). The protocol page publishes none, so these were computed once,
//! for this test, by a separate ~20-line Python script (hashlib only, from the page's layouts;
//! the same script reproduces the page's v2 `S_1` for m = 0) and pinned here: self-computed,
//! not from the page. Seats `japan`, `russia`; game, `L_1` and `v_1` of the page's v2 case.

use super::*;

const GAME: &str = "yellow-sea-1904";

fn h(s: &str) -> Hash {
    from_hex(s).unwrap()
}

const L_1: &str = "5de67b2fa1afe80cac7469a1ebe60a6b6a4902f9d2f9890d20907c98b839dedd";
const V_1: &str = "0a0369462ccee684bf6f210f416f02f9b0096a7b20272646bf77e45e1f751cec";

#[test]
fn a_seat_onion_uses_the_seat_as_its_party() {
    // c_0 = 0x33 × 32, party = "japan", N = 5.
    let japan = HostOnion::for_party(Protocol::V2, GAME, "japan", [0x33; 32], 5);
    assert_eq!(
        to_hex(&japan.anchor()),
        "be1f4d842c607569fa9109c44b3623038267e4a53fe909803fffb31cd8691c6d"
    );
    let r1 = japan.reveal(1).unwrap();
    let r2 = japan.reveal(2).unwrap();
    assert_eq!(
        to_hex(&r1),
        "4b6e048f5198938eefcb808440775119d61ee92cf4b03498176f9a29d820e5d0"
    );
    assert_eq!(
        to_hex(&r2),
        "983747057bcba4aadb6eeea7c220522fcffc1abe88c696aa8009f95701e64d3e"
    );
    // r_2 hashes once to r_1 and twice to the anchor (a step without a reveal in between).
    assert!(check_party_reveal(Protocol::V2, GAME, "japan", &r1, 1, &r2));
    assert!(check_party_reveal(
        Protocol::V2,
        GAME,
        "japan",
        &japan.anchor(),
        2,
        &r2
    ));
    assert!(!check_party_reveal(
        Protocol::V2,
        GAME,
        "japan",
        &japan.anchor(),
        1,
        &r2
    ));
    // Another party's element never chains to this anchor.
    assert!(!check_party_reveal(
        Protocol::V2,
        GAME,
        "russia",
        &japan.anchor(),
        1,
        &r1
    ));
    // The host's onion from the same secret is a different chain.
    let host = HostOnion::from_secret(Protocol::V2, GAME, [0x33; 32], 5);
    assert_ne!(host.anchor(), japan.anchor());
}

#[test]
fn strict_seed_with_two_seats_and_with_one_missing() {
    let japan = HostOnion::for_party(Protocol::V2, GAME, "japan", [0x33; 32], 5);
    let russia = HostOnion::for_party(Protocol::V2, GAME, "russia", [0x44; 32], 5);
    let r_j = japan.reveal(1).unwrap();
    let r_r = russia.reveal(1).unwrap();
    assert_eq!(
        to_hex(&r_r),
        "640b05d3095a8b08f031ae5810a50eec034e6c6fcadd938bc93895e750caab27"
    );
    let (l, v) = (h(L_1), h(V_1));
    let both = vec![("japan".to_string(), r_j), ("russia".to_string(), r_r)];
    assert_eq!(
        to_hex(&seed(Protocol::V2, &l, &v, &both)),
        "048b23b74792a2b9e2d3c96a77b411f863075eb5ac95c288514a366f0f8e0461"
    );
    let entries: Vec<(String, Option<Hash>)> =
        both.iter().map(|(s, r)| (s.clone(), Some(*r))).collect();
    assert_eq!(
        seed_strict(Protocol::V2, &l, &v, &entries),
        seed(Protocol::V2, &l, &v, &both)
    );
    // Ruling S2: a missing reveal is hashed as lp(""), the seat still counted in m.
    let missing = vec![
        ("japan".to_string(), Some(r_j)),
        ("russia".to_string(), None),
    ];
    assert_eq!(
        to_hex(&seed_strict(Protocol::V2, &l, &v, &missing)),
        "e8a6344664948a62bc586086403d5bc4dc82b59e7b5f029b7a8d805b4539e422"
    );
    // m = 0 is the page's own v2 S_1.
    assert_eq!(
        to_hex(&seed_strict(Protocol::V2, &l, &v, &[])),
        "d62b7d3d9bb7316ebf6a5da3c53f52d308784dca2a946ef2ee5f1d22699bb121"
    );
}

#[test]
fn a_reveal_bound_to_its_lock() {
    // japan's e_1 and e_2 are r1 and r2 of the first test; L' = H("another lock").
    let japan = HostOnion::for_party(Protocol::V2, GAME, "japan", [0x33; 32], 5);
    let (e1, e2) = (japan.reveal(1).unwrap(), japan.reveal(2).unwrap());
    let l1 = h(L_1);
    let r1 = bound_reveal(Protocol::V2, GAME, "japan", 1, &e1, &l1);
    assert_eq!(
        to_hex(&r1),
        "af80efb9d3c58f13dc9733fb1d83aa1ceb79484d8278017d27928cff217eebcf"
    );
    let other: Hash = sha2::Sha256::digest(b"another lock").into();
    assert_eq!(
        to_hex(&other),
        "14c651bd1ecdeed2c2e32e53fec393f7169149f62965c5c3b0c362058896f202"
    );
    assert_eq!(
        to_hex(&bound_reveal(Protocol::V2, GAME, "japan", 1, &e1, &other)),
        "33fa0a191140d44597d16f3e31c6270332328d66d58cbd3b4cd0c403085e2b4d"
    );
    assert_eq!(
        to_hex(&bound_reveal(Protocol::V2, GAME, "japan", 2, &e2, &l1)),
        "e1621e8b6e1f1898daca1b74f09e6016f029af6638d0aa1847fdc02b85d05a7c"
    );
    // The seed takes the bound reveal where an older game took e_j.
    let v = h(V_1);
    assert_eq!(
        to_hex(&seed(Protocol::V2, &l1, &v, &[("japan".to_string(), r1)])),
        "90e6b458d71f317d6c8e8c945cec0ef8e5917737e2035f4b27d049d9c439007a"
    );
    // The opening: e_2 walks to the anchor in 2 steps and to e_1 in one.
    assert_eq!(onion_walk(Protocol::V2, GAME, "japan", &e2, 1), e1);
    assert_eq!(
        onion_walk(Protocol::V2, GAME, "japan", &e2, 2),
        japan.anchor()
    );
}
