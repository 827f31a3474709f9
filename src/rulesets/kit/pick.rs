//! A small deterministic mixer for the scripted players. Pure; not for dice, which come only
//! from the dice protocol.

/// splitmix64, so different `choice` values pick different options in `sample_orders`.
pub struct Pick(pub u64);

impl Pick {
    pub fn draw(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn one_in(&mut self, n: u64) -> bool {
        self.draw().is_multiple_of(n.max(1))
    }
}
