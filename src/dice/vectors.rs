//! The known-answer vectors of `docs/dice-protocol.md`, computed by an independent
//! implementation: v2 (every new game) and v1 (games created before it).

use sha2::{Digest, Sha256};

use super::*;

fn h(s: &str) -> Hash {
    from_hex(s).unwrap()
}

const GAME: &str = "yellow-sea-1904";

#[test]
fn chacha_first_words_match_the_vector() {
    let mut rng = stream(&[0u8; 32], 0);
    let w: Vec<u32> = (0..4).map(|_| rand_core::Rng::next_u32(&mut rng)).collect();
    assert_eq!(w, vec![0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653]);
}

#[test]
fn ten_d6_from_streams_zero_and_one() {
    assert_eq!(
        roll_stream(&[0u8; 32], 0, &Faces::d(6), 10),
        vec![1, 1, 1, 6, 6, 1, 3, 6, 5, 4]
    );
    assert_eq!(
        roll_stream(&[0u8; 32], 1, &Faces::d(6), 10),
        vec![2, 3, 2, 4, 6, 5, 2, 1, 2, 4]
    );
}

fn onion_vectors(proto: Protocol, expected: [&str; 4]) {
    let onion = HostOnion::from_secret(proto, GAME, [0x11; 32], 5);
    let a = onion.anchor();
    assert_eq!(to_hex(&a), expected[0]);
    let v: Vec<Hash> = (1..=3).map(|k| onion.reveal(k).unwrap()).collect();
    for k in 0..3 {
        assert_eq!(to_hex(&v[k]), expected[k + 1], "v_{}", k + 1);
    }
    assert!(check_reveal(proto, GAME, &a, &v[0]));
    assert!(check_reveal(proto, GAME, &v[0], &v[1]));
    assert!(!check_reveal(proto, GAME, &a, &v[1]));
    assert!(onion.reveal(6).is_err());
    assert!(onion.reveal(0).is_err());
}

#[test]
fn v2_onion_vectors() {
    onion_vectors(
        Protocol::V2,
        [
            "50c72a011a063b896e344adfcdff00337e9aa6d004fdae02b17c7057ceb4e357",
            "0a0369462ccee684bf6f210f416f02f9b0096a7b20272646bf77e45e1f751cec",
            "8b3beb56f3beebceea9758062ccd6fbf3d6c0133e6066db41ef12fc5499780b8",
            "c50e40ae59e81b9365769a4a0b4d0ff814fc56aa6070437840d7cbb1e72ac3ef",
        ],
    );
}

#[test]
fn v1_onion_vectors() {
    onion_vectors(
        Protocol::V1,
        [
            "6a53d2b8f9e292c2881d3bbeaa30a5de6b77f31e4bea2ce073548fd3e59e0b8e",
            "4e11c8af195e6259395a8f35cb9496f290316fd18c05dfc346eac8dcc810a66c",
            "41b32264448b0e592ed053a491e89b154480077223b962f7e67eed55b704be7e",
            "adb47dcc53644841ebf02017a6df8a8fc26760911b675abb6da94937477d7d19",
        ],
    );
}

#[test]
fn v2_salt_key_commitment_and_log_genesis() {
    assert_eq!(
        to_hex(&salt_key_commitment(GAME, &[0x22; 32])),
        "995ac61b91f53e28eed19e987053449bb001abc60f3fb4a276027443f4a3133f"
    );
    assert_eq!(
        to_hex(&log_genesis(Protocol::V2)),
        "0a05c23222b8029b36807e910e9a81783a87c01eb63b485f043124a4c6ce4e1d"
    );
}

/// Step 1 of the protocol page: salts, digests, `L_1`, `S_1` and four roll requests.
fn step_one(
    proto: Protocol,
    salts: (Hash, Hash),
    v1: Hash,
    expected: [&str; 5],
    rolls: [[u32; 6]; 3],
    d10: [u32; 4],
) {
    let (salt_r, salt_j) = salts;
    assert_eq!(to_hex(&salt_r), expected[0]);
    let d_r = orders_digest(
        proto,
        GAME,
        1,
        "russia",
        &salt_r,
        "TURN Tsesarevich PORT 45\n",
    );
    assert_eq!(to_hex(&d_r), expected[1]);
    let d_j = orders_digest(
        proto,
        GAME,
        1,
        "japan",
        &salt_j,
        "FIRE Mikasa AT Tsesarevich\n",
    );
    assert_eq!(to_hex(&d_j), expected[2]);
    let head: Hash = Sha256::digest(b"example").into();
    let l1 = lock(
        proto,
        GAME,
        1,
        &head,
        &[("japan".into(), Some(d_j)), ("russia".into(), Some(d_r))],
    );
    assert_eq!(to_hex(&l1), expected[3]);
    let s1 = seed(proto, &l1, &v1, &[]);
    assert_eq!(to_hex(&s1), expected[4]);
    let mut dice = Dice::new(s1);
    assert_eq!(dice.roll("a", Faces::d(6), 6), rolls[0]);
    assert_eq!(dice.roll("b", Faces::d(6), 6), rolls[1]);
    assert_eq!(dice.roll("c", Faces::d(6), 6), rolls[2]);
    assert_eq!(dice.roll("d", Faces::d(10), 4), d10);
    assert!(check_table(&s1, dice.table()).is_ok());
    let mut bad = dice.table().to_vec();
    bad[2].results[0] = if bad[2].results[0] == 4 { 5 } else { 4 };
    assert_eq!(check_table(&s1, &bad).unwrap_err().0, 2);
}

#[test]
fn v2_step_one_vectors() {
    let z = [0x22; 32];
    let v1 = h("0a0369462ccee684bf6f210f416f02f9b0096a7b20272646bf77e45e1f751cec");
    step_one(
        Protocol::V2,
        (salt(GAME, &z, 1, "russia"), salt(GAME, &z, 1, "japan")),
        v1,
        [
            "f1da1de7575d6f90495a27ca11d55ca638ca80b1494e9ff99f7db54e4b26523b",
            "323957af66355490c8757f4a340c7f3929c09ad55b34075575cf7e537d8305d4",
            "69d92f43676b7783030ec1ffc4dd338eb24597914b0c305480ab0f5b49b61801",
            "5de67b2fa1afe80cac7469a1ebe60a6b6a4902f9d2f9890d20907c98b839dedd",
            "d62b7d3d9bb7316ebf6a5da3c53f52d308784dca2a946ef2ee5f1d22699bb121",
        ],
        [[5, 3, 4, 3, 3, 5], [3, 4, 4, 2, 6, 6], [5, 6, 4, 1, 2, 1]],
        [7, 3, 6, 1],
    );
}

#[test]
fn v1_step_one_vectors() {
    let v1 = h("4e11c8af195e6259395a8f35cb9496f290316fd18c05dfc346eac8dcc810a66c");
    step_one(
        Protocol::V1,
        (salt_v1(&v1, "russia"), salt_v1(&v1, "japan")),
        v1,
        [
            "ea60a81c663a2c2cdf28fe9255afc02db6836f97ed5dc3bdfa68a6f807965008",
            "fca5ded9eb4dbf0173ee30205593e759f2dfa521f12eddec5c521b6681fac225",
            "a76491526c2cb6b5e9c6ee108352d456f9df6909a10b1847b45977c923a0998b",
            "ccc1a5e957aa76391c86bd5c447482c1ebfc9fcc005b514e0816913868d276d9",
            "1cf082dccdb55e854c18344a14bf80e1ca8ae284231c7fc6274ec0f219be4261",
        ],
        [[2, 1, 3, 6, 1, 5], [3, 1, 2, 4, 4, 5], [3, 5, 6, 4, 6, 5]],
        [4, 4, 5, 10],
    );
}

#[test]
fn nmr_lock_differs_from_submitted() {
    let head = log_genesis(Protocol::V2);
    let a = lock(Protocol::V2, "g", 1, &head, &[("x".into(), None)]);
    let b = lock(Protocol::V2, "g", 1, &head, &[("x".into(), Some([0; 32]))]);
    assert_ne!(a, b);
}

#[test]
fn average_die_only_gives_its_faces() {
    let v = roll_stream(&[7; 32], 3, &Faces::average_die(), 600);
    assert!(v.iter().all(|x| [2, 3, 4, 5].contains(x)));
    assert!(v.contains(&2) && v.contains(&5));
    let z = roll_stream(&[7; 32], 4, &Faces::ZeroBased { sides: 10 }, 300);
    assert!(z.contains(&0) && z.iter().all(|x| *x < 10));
}

#[test]
fn debug_never_prints_the_secrets() {
    let s = GameSecrets::pinned("g", [0xab; 32], [0xcd; 32], 3);
    let text = format!("{s:?}");
    assert!(!text.contains("abab") && !text.contains("cdcd"), "{text}");
    assert!(!text.contains("171") && !text.contains("205"), "{text}");
}

#[test]
fn checkpointed_reveals_equal_the_plain_chain() {
    for len in [1u64, 2, 5, 17, 100, 101] {
        let onion = HostOnion::from_secret(Protocol::V2, "g", [3; 32], len);
        let mut c = [3u8; 32];
        let mut chain = vec![c];
        for _ in 0..len {
            c = onion_step(Protocol::V2, "g", "host", &c);
            chain.push(c);
        }
        for i in 0..=len {
            assert_eq!(onion.element(i), chain[i as usize], "len {len} i {i}");
        }
        let again = HostOnion::with_checkpoints(
            Protocol::V2,
            "g",
            [3; 32],
            len,
            onion.checkpoints().to_vec(),
        )
        .expect("its own checkpoints fit");
        assert_eq!(again.anchor(), onion.anchor());
        assert!(
            HostOnion::with_checkpoints(
                Protocol::V2,
                "g",
                [4; 32],
                len,
                onion.checkpoints().to_vec()
            )
            .is_none()
        );
    }
}
