//! Campaigns in the shell's hands (issue 34; docs/campaigns.md): declaring one (`despatch
//! campaign new`), starting the next battle when one ends (`campaign_pass`, on the clock, after
//! `GameEnded` marked the campaign due), the standing a game-over mail carries and the letter
//! to players who sat out (re-deriving is `campaign_derive`'s). Reads, writes and creates games;
//! every decision (what follows, the points, the carried scenario) is `engine::campaign_plan`'s.

use anyhow::{Context, Result, anyhow, bail};
use chrono::{DateTime, Utc};
use tracing::{info, warn};

use crate::dice::GameSecrets;
use crate::engine::campaign_plan::{self, CampaignLink, Fought, Ledger, Next, Plan};
use crate::engine::{Creation, Event, Play};
use crate::store::CampaignRecord;

use super::Daemon;
use super::campaign::{CampaignStart, NewGame};

/// Where a new campaign's plan comes from.
#[derive(Debug, Clone)]
pub enum PlanSource {
    /// A campaign the ruleset ships: `games/<ruleset>/campaigns/<name>.toml`.
    Shipped(String),
    /// A plain chain of scenarios (`--scenarios A,B,C`) with these carry terms.
    Scenarios(Vec<String>, toml::Table),
}

/// A campaign as `despatch campaign new` asks for it.
#[derive(Debug, Clone)]
pub struct CampaignNew {
    pub name: String,
    pub ruleset: String,
    pub plan: PlanSource,
    /// Every seat of every battle: (seat, address with optional display name).
    pub seats: Vec<(String, String)>,
    pub league: Option<String>,
    pub gm: Option<String>,
}

/// The battle game id: `<campaign>-<number>`.
pub fn battle_id(name: &str, number: usize) -> String {
    format!("{name}-{number}")
}

/// The sides in the order the game's seats first name them.
pub(super) fn sides_of(p: &dyn Play) -> Vec<String> {
    let mut v: Vec<String> = vec![];
    for s in &p.book().seats {
        if !v.contains(&s.side) {
            v.push(s.side.clone());
        }
    }
    v
}

impl Daemon {
    fn plan_text(&self, ruleset: &str, name: &str, source: &PlanSource) -> Result<String> {
        match source {
            PlanSource::Shipped(file) => {
                let dir = self.cfg.ruleset_dir(ruleset).map_err(|e| anyhow!(e))?;
                let p = dir.join("campaigns").join(format!("{file}.toml"));
                std::fs::read_to_string(&p).with_context(|| {
                    format!(
                        "campaign plan `{file}`: {} (the ruleset's campaigns folder)",
                        p.display()
                    )
                })
            }
            PlanSource::Scenarios(list, terms) => {
                Ok(Plan::linear(name, list, terms.clone())
                    .map_err(|e| anyhow!("--scenarios: {e}"))?)
            }
        }
    }

    fn scenario_text(&self, ruleset: &str, scenario: &str) -> Result<String> {
        let dir = self.cfg.ruleset_dir(ruleset).map_err(|e| anyhow!(e))?;
        let p = dir.join("scenarios").join(format!("{scenario}.toml"));
        std::fs::read_to_string(&p)
            .with_context(|| format!("scenario `{scenario}`: {}", p.display()))
    }

    /// A battle's scenario set up as shipped (throw-away secrets), to check the campaign with.
    fn trial_battle(
        &self,
        ruleset: &str,
        scenario: &str,
        now: DateTime<Utc>,
    ) -> Result<Box<dyn Play>> {
        let text = self.scenario_text(ruleset, scenario)?;
        let offer = crate::engine::lobby::offer_from_toml(ruleset, scenario, &text)
            .ok_or_else(|| anyhow!("scenario `{scenario}` names no seats"))?;
        let seats: Vec<String> = offer.seats.iter().map(|(s, _)| s.clone()).collect();
        let dir = self.cfg.ruleset_dir(ruleset).map_err(|e| anyhow!(e))?;
        let ruleset_toml = std::fs::read_to_string(dir.join("ruleset.toml"))?;
        let secrets = GameSecrets::pinned("trial", [0; 32], [0; 32], 1);
        let entry = self.registry.get(ruleset)?;
        let ev = entry
            .create(&Creation {
                game: "trial",
                scenario,
                ruleset_toml: &ruleset_toml,
                scenario_toml: &text,
                seats: &seats,
                protocol: secrets.protocol(),
                anchor: secrets.onion.anchor(),
                onion_len: secrets.onion.len(),
                salt_commitment: secrets.salt_commitment("trial"),
                mail_key: None,
                policy: self.cfg.games.policy.clone(),
                now,
            })
            .map_err(|e| anyhow!("scenario `{scenario}`: {e}"))?;
        Ok(entry.open(&ev, &ev.to_line())?)
    }

    /// Declares a campaign and starts its first battle. Everything is checked first: the
    /// plan, every battle's scenario, the sides (the same in every battle), the players (every
    /// seat of every battle has one, no one plays nowhere), and that the ruleset carries from
    /// each battle into each battle that may follow it under the plan's terms.
    pub fn create_campaign(&self, req: &CampaignNew, now: DateTime<Utc>) -> Result<String> {
        let name = &req.name;
        if !crate::engine::valid_game_id(name) || name.len() > campaign_plan::MAX_NAME {
            bail!(
                "campaign `{name}`: use 1–{} characters a–z, 0–9 and `-`, starting with a letter \
                 (its battles are games `{name}-1`, `{name}-2`, …)",
                campaign_plan::MAX_NAME
            );
        }
        if self.data.campaign(name)?.is_some() {
            bail!("campaign `{name}` already exists");
        }
        let text = self.plan_text(&req.ruleset, name, &req.plan)?;
        let plan = Plan::parse(&text).map_err(|e| anyhow!("campaign plan: {e}"))?;
        let mut trials = vec![];
        for b in &plan.battle {
            trials.push(self.trial_battle(&req.ruleset, &b.scenario, now)?);
        }
        let sides = sides_of(trials[0].as_ref());
        let mut sorted = sides.clone();
        sorted.sort();
        for (b, t) in plan.battle.iter().zip(&trials) {
            let mut s = sides_of(t.as_ref());
            s.sort();
            if s != sorted {
                bail!(
                    "battle `{}` ({}) has the sides {}, the campaign {}: every battle must field \
                     the same sides",
                    b.key,
                    b.scenario,
                    s.join(", "),
                    sorted.join(", ")
                );
            }
            for seat in &t.book().seats {
                if !req.seats.iter().any(|(s, _)| *s == seat.seat) {
                    bail!(
                        "battle `{}` ({}) has seat `{}`, which has no player (--seat)",
                        b.key,
                        b.scenario,
                        seat.seat
                    );
                }
            }
        }
        if let Some((s, _)) = req.seats.iter().find(|(s, _)| {
            !trials
                .iter()
                .any(|t| t.book().seats.iter().any(|e| e.seat == *s))
        }) {
            bail!("--seat {s}: no battle of the campaign has that seat");
        }
        plan.check_sides(&sides)
            .map_err(|e| anyhow!("campaign plan: {e}"))?;
        for (b, t) in plan.battle.iter().zip(&trials) {
            for next in plan.successors(&b.key) {
                let nb = plan.battle(next).expect("checked by Plan::parse");
                let base = self.scenario_text(&req.ruleset, &nb.scenario)?;
                t.carry_into(&base, &plan.carry)
                    .map_err(|e| anyhow!("carrying from `{}` into `{next}`: {e}", b.key))?;
            }
        }
        let first = battle_id(name, 1);
        // Every id a battle may take must be free (and `despatch new` refuses them from now on).
        for n in 1..=plan.longest() {
            let id = battle_id(name, n);
            if self.data.game(&id).exists() {
                bail!("game `{id}` already exists: choose another campaign name");
            }
        }
        for (seat, address) in &req.seats {
            address
                .parse::<crate::config::address::Mailbox>()
                .map_err(|e| anyhow!("seat {seat}: {e}"))?;
        }
        let mut rec = CampaignRecord {
            name: name.clone(),
            ruleset: req.ruleset.clone(),
            plan: text,
            seats: req.seats.clone(),
            league: req.league.clone(),
            gm: req.gm.clone(),
            games: vec![],
            created: now,
        };
        self.data.write_campaign(&rec)?;
        let before = campaign_plan::ledger(&plan, &sides, &[]).map_err(|e| anyhow!("{e}"))?;
        self.start_battle(&mut rec, &plan, 1, plan.first_key(), None, &before, now)?;
        self.write_campaigns_page();
        info!(campaign = %name, ruleset = %req.ruleset, "campaign created");
        Ok(first)
    }

    /// Creates battle `number` (unless it exists: a crash after creating it and before the
    /// record was written heals here) and records it.
    #[allow(clippy::too_many_arguments)]
    fn start_battle(
        &self,
        rec: &mut CampaignRecord,
        plan: &Plan,
        number: usize,
        key: &str,
        after: Option<String>,
        before: &Ledger,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let id = battle_id(&rec.name, number);
        let battle = plan
            .battle(key)
            .ok_or_else(|| anyhow!("no battle `{key}`"))?;
        if self.data.game(&id).exists() {
            // Taken up only if it is this battle (a crash after making it); a game of that id
            // made otherwise is never adopted.
            let g = self.data.game(&id).open(&self.registry)?;
            let ours =
                g.book().policy.club.campaign.as_ref().is_some_and(|l| {
                    l.name == rec.name && l.battle as usize == number && l.key == key
                });
            if !ours {
                bail!(
                    "game `{id}` exists but is not battle {number} ({key}) of campaign {}: \
                     the campaign cannot go on until it is moved away",
                    rec.name
                );
            }
        } else {
            let text = self.scenario_text(&rec.ruleset, &battle.scenario)?;
            let offer =
                crate::engine::lobby::offer_from_toml(&rec.ruleset, &battle.scenario, &text)
                    .ok_or_else(|| anyhow!("scenario `{}` names no seats", battle.scenario))?;
            let seats: Vec<(String, String)> = offer
                .seats
                .iter()
                .map(|(s, _)| {
                    rec.seats
                        .iter()
                        .find(|(r, _)| r == s)
                        .cloned()
                        .ok_or_else(|| anyhow!("seat `{s}` has no player in campaign {}", rec.name))
                })
                .collect::<Result<_>>()?;
            let note = campaign_plan::welcome_note(&rec.name, plan, number as u32, key, before);
            let extras = NewGame {
                league: rec.league.clone(),
                carry_from: after.clone(),
                gm: rec.gm.clone(),
                campaign: Some(CampaignStart {
                    link: CampaignLink {
                        name: rec.name.clone(),
                        battle: number as u32,
                        key: key.to_string(),
                        plan: rec.plan.clone(),
                        base: String::new(),
                        after,
                    },
                    note,
                }),
            };
            self.create_game_as(&id, &rec.ruleset, &battle.scenario, &seats, now, &extras)?;
            info!(campaign = %rec.name, game = %id, battle = key, "campaign battle started");
        }
        if !rec.games.contains(&id) {
            rec.games.push(id);
            self.data.write_campaign(rec)?;
        }
        Ok(())
    }

    /// At a battle's end: marks its campaign for the clock (a crash before the mark heals
    /// with the game-over mail, which is queued in the same place).
    pub(super) fn campaign_mark_at_end(
        &self,
        game: &dyn Play,
        event: &Event,
        now: DateTime<Utc>,
    ) -> Result<()> {
        if !matches!(event, Event::GameEnded { .. }) {
            return Ok(());
        }
        if let Some(link) = &game.book().policy.club.campaign {
            self.data.mark_campaign_due(&link.name, &game.book().id)?;
            *self
                .campaign_due_at
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = Some(now);
        }
        Ok(())
    }

    /// After a game is closed: if a campaign battle ended in it, its campaign goes on now.
    pub(super) fn campaign_after_close(&self) {
        let at = self
            .campaign_due_at
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(now) = at {
            self.campaign_pass(now);
        }
    }

    /// The clock's part: every campaign whose battle ended goes on (the next battle starts)
    /// or ends. One bad campaign never stops another, nor the games.
    pub(super) fn campaign_pass(&self, now: DateTime<Utc>) {
        for name in self.data.campaigns_due() {
            match self.advance_campaign(&name, now) {
                Ok(()) => {
                    if let Err(e) = self.data.clear_campaign_due(&name) {
                        warn!(campaign = %name, "campaign still marked due: {e}");
                    }
                }
                Err(e) => warn!(campaign = %name, "campaign not advanced: {e:#}"),
            }
        }
    }

    fn advance_campaign(&self, name: &str, now: DateTime<Utc>) -> Result<()> {
        let Some(mut rec) = self.data.campaign(name)? else {
            // A game naming a campaign the host no longer has: nothing to go on with.
            return Ok(());
        };
        let plan = Plan::parse(&rec.plan).map_err(|e| anyhow!("{e}"))?;
        // A battle made but not recorded (a crash between the two) is taken up first.
        let n = rec.games.len();
        let unrecorded = battle_id(name, n + 1);
        let is_ours = |id: &str| {
            self.data.game(id).open(&self.registry).is_ok_and(|g| {
                g.book()
                    .policy
                    .club
                    .campaign
                    .as_ref()
                    .is_some_and(|l| l.name == name && l.battle as usize == n + 1)
            })
        };
        if n > 0 && self.data.game(&unrecorded).exists() && is_ours(&unrecorded) {
            rec.games.push(unrecorded);
            self.data.write_campaign(&rec)?;
        }
        let (ledger, _) = self.campaign_ledger_of(&rec, None)?;
        if let Next::Battle(key) = &ledger.next {
            let after = rec.games.last().cloned();
            let number = rec.games.len() + 1;
            self.start_battle(&mut rec, &plan, number, key, after, &ledger, now)?;
        }
        self.standing_to_the_benched(&rec, &ledger, now)?;
        self.write_campaigns_page();
        Ok(())
    }

    /// The players of the campaign who did not play in the battle that just ended hear where
    /// the campaign stands by a letter from the house (those who played read it in their
    /// game-over mail). Named per campaign, battle and address: a second pass queues nothing new.
    fn standing_to_the_benched(
        &self,
        rec: &CampaignRecord,
        ledger: &Ledger,
        now: DateTime<Utc>,
    ) -> Result<()> {
        // The battle that ended is the last row, unless the last row is still being fought
        // (a campaign marked due with nothing ended: no letter).
        if matches!(ledger.next, Next::Fighting(_)) {
            return Ok(());
        }
        let Some(ended) = ledger.rows.last() else {
            return Ok(());
        };
        let played = self.data.game(&ended.game).seats()?;
        let text = crate::report::wrap_text(&format!(
            "Battle {} of campaign {} has ended.\n\n{}\n-- \nDespatch\n",
            ended.game,
            rec.name,
            ledger.text(&rec.name)
        ));
        let subject = format!("[campaign {}] Standing after {}", rec.name, ended.game);
        let house = self.data.house();
        for (seat, address) in &rec.seats {
            if played.seats.contains_key(seat) {
                continue;
            }
            let Ok(mailbox) = address.parse::<crate::config::address::Mailbox>() else {
                continue;
            };
            if self.data.is_quiet(&mailbox.address) {
                continue;
            }
            let tag = hex::encode(
                &<sha2::Sha256 as sha2::Digest>::digest(
                    mailbox.address.to_ascii_lowercase().as_bytes(),
                )[..6],
            );
            let name = format!("campaign-{}-{}-{tag}", rec.name, ended.game);
            let out = self.standings_letter(&mailbox.address, &subject, &text, &name, now);
            let bytes = crate::mail::outbound::build(&out)
                .map_err(|e| anyhow!("building mail {name}: {e}"))?;
            house.queue(&name, &bytes)?;
        }
        Ok(())
    }

    /// The campaign's ledger from its battles' games, `current` standing in for the game of
    /// that id (the one being mailed, not yet closed).
    fn campaign_ledger_of(
        &self,
        rec: &CampaignRecord,
        current: Option<&dyn Play>,
    ) -> Result<(Ledger, Vec<String>)> {
        let plan = Plan::parse(&rec.plan).map_err(|e| anyhow!("{e}"))?;
        let mut fought = vec![];
        let mut sides = vec![];
        for id in &rec.games {
            let opened;
            let p: &dyn Play = match current.filter(|c| c.book().id == *id) {
                Some(c) => c,
                None => {
                    opened = self.data.game(id).open(&self.registry)?;
                    opened.as_ref()
                }
            };
            if sides.is_empty() {
                sides = sides_of(p);
            }
            fought.push(fought_of(p)?);
        }
        let ledger = campaign_plan::ledger(&plan, &sides, &fought).map_err(|e| anyhow!("{e}"))?;
        Ok((ledger, sides))
    }

    /// `despatch campaign NAME`: the record and where the campaign stands.
    pub fn campaign_ledger(&self, name: &str) -> Result<(CampaignRecord, Ledger)> {
        let rec = self
            .data
            .campaign(name)?
            .ok_or_else(|| anyhow!("no campaign `{name}` in {}", self.data.root.display()))?;
        let (ledger, _) = self.campaign_ledger_of(&rec, None)?;
        Ok((rec, ledger))
    }

    /// The campaign's standing for the game-over mail of `game` (which has just ended): the
    /// battles so far with this one, and what follows. `None` outside a campaign; a campaign
    /// that cannot be read is logged and the mail goes without it.
    pub(super) fn campaign_text_at_end(&self, game: &dyn Play) -> Option<String> {
        let link = game.book().policy.club.campaign.as_ref()?;
        let read = || -> Result<String> {
            let rec = self
                .data
                .campaign(&link.name)?
                .ok_or_else(|| anyhow!("no campaign `{}`", link.name))?;
            let (ledger, _) = self.campaign_ledger_of(&rec, Some(game))?;
            Ok(ledger.text(&link.name))
        };
        read()
            .inspect_err(
                |e| warn!(campaign = %link.name, "no standing in the game-over mail: {e:#}"),
            )
            .ok()
    }
}

/// A battle as the ledger counts it.
pub(super) fn fought_of(p: &dyn Play) -> Result<Fought> {
    let b = p.book();
    let link = b
        .policy
        .club
        .campaign
        .as_ref()
        .ok_or_else(|| anyhow!("game {} is not a campaign battle", b.id))?;
    let outcome = p.outcome();
    Ok(Fought {
        game: b.id.clone(),
        key: link.key.clone(),
        winners: outcome.as_ref().map(|o| o.winners.clone()),
        summary: outcome
            .map(|o| o.summary)
            .unwrap_or_else(|| "being fought".into()),
        abandoned: b.club.abandoned.is_some(),
    })
}
