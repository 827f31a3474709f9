//! Who is in a game: its two sides and the units on the table, looked up the same way in
//! every ruleset (one name and one type for "the enemy of", "the side's name", "the unit
//! called"). Look-ups only: no rule is decided here, and nothing is changed but through the
//! `_mut` handles a ruleset asks for.

/// A side as a ruleset keeps it: the id orders and units carry, and the name mails print.
pub trait SideCard {
    fn id(&self) -> &str;
    fn name(&self) -> &str;
}

/// A game between two sides (every ruleset's setup refuses any other number).
pub trait TwoSides {
    type Side: SideCard;

    /// The sides in scenario order.
    fn sides(&self) -> &[Self::Side];
    fn sides_mut(&mut self) -> &mut [Self::Side];

    fn side(&self, id: &str) -> Option<&Self::Side> {
        self.sides().iter().find(|s| s.id() == id)
    }

    fn side_mut(&mut self, id: &str) -> Option<&mut Self::Side> {
        self.sides_mut().iter_mut().find(|s| s.id() == id)
    }

    /// The side's name for mails; an id that is no side of this game prints as itself.
    fn side_name(&self, id: &str) -> String {
        self.side(id)
            .map_or_else(|| id.to_string(), |s| s.name().to_string())
    }

    /// The other side. `None` only for a game without two sides, which setup refuses;
    /// callers that must carry on regardless read it as "" (no side's id).
    fn enemy_of(&self, side: &str) -> Option<&str> {
        self.sides().iter().map(|s| s.id()).find(|id| *id != side)
    }
}

/// A unit as a ruleset keeps it: known by the unique name players write in orders.
pub trait Named {
    fn name(&self) -> &str;
}

/// The units on the table, found by name.
pub trait Roster {
    type Unit: Named;

    fn units(&self) -> &[Self::Unit];
    fn units_mut(&mut self) -> &mut [Self::Unit];

    fn unit(&self, name: &str) -> Option<&Self::Unit> {
        self.units().iter().find(|u| u.name() == name)
    }

    fn unit_mut(&mut self, name: &str) -> Option<&mut Self::Unit> {
        self.units_mut().iter_mut().find(|u| u.name() == name)
    }
}

/// The plain impls for a ruleset whose sides have `id` and `name` fields, whose units have a
/// `name`, and whose state keeps them in `sides` and `units`.
macro_rules! roster_of {
    ($state:ty, $side:ty, $unit:ty) => {
        impl $crate::rulesets::kit::roster::SideCard for $side {
            fn id(&self) -> &str {
                &self.id
            }
            fn name(&self) -> &str {
                &self.name
            }
        }
        impl $crate::rulesets::kit::roster::TwoSides for $state {
            type Side = $side;
            fn sides(&self) -> &[$side] {
                &self.sides
            }
            fn sides_mut(&mut self) -> &mut [$side] {
                &mut self.sides
            }
        }
        impl $crate::rulesets::kit::roster::Named for $unit {
            fn name(&self) -> &str {
                &self.name
            }
        }
        impl $crate::rulesets::kit::roster::Roster for $state {
            type Unit = $unit;
            fn units(&self) -> &[$unit] {
                &self.units
            }
            fn units_mut(&mut self) -> &mut [$unit] {
                &mut self.units
            }
        }
    };
}
pub(crate) use roster_of;

#[cfg(test)]
mod tests {
    use super::*;

    struct S(&'static str, &'static str);
    struct U(&'static str);
    struct G {
        sides: Vec<S>,
        units: Vec<U>,
    }
    impl SideCard for S {
        fn id(&self) -> &str {
            self.0
        }
        fn name(&self) -> &str {
            self.1
        }
    }
    impl Named for U {
        fn name(&self) -> &str {
            self.0
        }
    }
    impl TwoSides for G {
        type Side = S;
        fn sides(&self) -> &[S] {
            &self.sides
        }
        fn sides_mut(&mut self) -> &mut [S] {
            &mut self.sides
        }
    }
    impl Roster for G {
        type Unit = U;
        fn units(&self) -> &[U] {
            &self.units
        }
        fn units_mut(&mut self) -> &mut [U] {
            &mut self.units
        }
    }

    #[test]
    fn the_other_side_and_names() {
        let g = G {
            sides: vec![S("fr", "French"), S("br", "British")],
            units: vec![U("1/52"), U("Guard")],
        };
        assert_eq!(g.enemy_of("fr"), Some("br"));
        assert_eq!(g.enemy_of("br"), Some("fr"));
        assert_eq!(g.side_name("br"), "British");
        assert_eq!(g.side_name("xx"), "xx");
        assert!(g.unit("Guard").is_some() && g.unit("guard").is_none());
        let lone = G {
            sides: vec![S("fr", "French")],
            units: vec![],
        };
        assert_eq!(lone.enemy_of("fr"), None);
    }
}
