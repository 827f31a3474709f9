//! The command line as clap reads it: every command and argument, with the help each prints.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Despatch runs tabletop wargames by email, with dice nobody can fix.
///
/// Start with `despatch demo`: it plays a whole Naval game through the real mail pipeline on
/// local Maildirs and tells you where to look. Then `despatch new` a game of your own.
#[derive(Parser)]
#[command(name = "despatch", version, about, long_about)]
pub struct Cli {
    /// Configuration file (default: ./config.toml, or the built-in default if there is none).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Play a scripted Naval RJW game through the real pipeline on local Maildirs, then say where
    /// the mails and the game store are and how to verify them.
    Demo {
        /// Scenario to play (games/naval-rjw/scenarios/<name>.toml).
        #[arg(long, default_value = "yellow-sea-1904")]
        scenario: String,
        /// Where the demo keeps everything (wiped first).
        #[arg(long, default_value = "var/demo", value_name = "DIR")]
        dir: PathBuf,
        /// Stop after this many steps even if nobody has won.
        #[arg(long, default_value_t = 400)]
        max_steps: u64,
    },
    /// The daemon: read the inbox, resolve what is ready, send mail, watch deadlines.
    Run {
        /// Process what is waiting once, then exit.
        #[arg(long)]
        once: bool,
    },
    /// Receive one-click unsubscriptions (RFC 8058): a small HTTP server for the POSTs that
    /// the club's TLS reverse proxy passes on from `[web] unsubscribe_url`. It only queues
    /// them; `despatch run` carries them out at its next pass (docs/club-rules.md L1).
    Listen {
        /// Where to listen: keep it on the loopback, behind the reverse proxy.
        #[arg(long, default_value = "127.0.0.1:8058")]
        addr: String,
    },
    /// Create a game from a shipped scenario and mail every seat its welcome. Run it as the
    /// service user (it refuses another user than the data folder's owner).
    New(NewArgs),
    /// A league's standings: per player, games played, won, drawn, lost, points and Glicko-2
    /// rating, then its finished and running games.
    League {
        /// The league's name, as given to `despatch new --league`.
        league: String,
        /// text, or html (the fragment the archive shows).
        #[arg(long, default_value = "text", value_parser = ["text", "html"])]
        format: String,
        /// Re-derive the table from these archive folders alone (each ended game's: its
        /// journal.jsonl and league.json), not the data folder, and compare it with the table
        /// each archive published; exit 1 on any difference.
        #[arg(long, num_args = 1.., value_name = "ARCHIVE_DIR")]
        derive: Vec<PathBuf>,
        /// With --derive: standings mails (.eml) to compare with the re-derived table too.
        #[arg(long, num_args = 1.., value_name = "FILE.eml", requires = "derive")]
        mailed: Vec<PathBuf>,
    },
    /// Campaigns: battles of one ruleset linked by the same players, each carrying what the
    /// last one left, started by themselves (docs/campaigns.md).
    Campaign {
        #[command(subcommand)]
        action: CampaignCommand,
    },
    /// A player's own commands for strict dice, run on the player's machine (not the host's).
    Player {
        #[command(subcommand)]
        action: PlayerCommand,
    },
    /// Process raw RFC 5322 messages (files, or - for standard input) exactly as the daemon does.
    Ingest {
        /// Mail files to process, one message each (`-` reads one from standard input).
        #[arg(required = true, value_name = "FILE.eml|-")]
        files: Vec<PathBuf>,
    },
    /// Show every game, or one game's step, who is awaited and the deadline.
    Status {
        /// One game's id (every game if left out).
        game: Option<String>,
    },
    /// List the mail held for later (over a seat's hourly limit, or whose processing failed):
    /// key, when it came, from, game, why and next try. Held mail is read again by itself when
    /// its cause is gone; --retry reads it now.
    Held {
        /// Read held mail now, the hourly limit aside: the mail KEY (or the start of its key),
        /// or every held mail when no KEY is given (in the order it came).
        #[arg(long, value_name = "KEY", conflicts_with = "drop")]
        retry: Option<Option<String>>,
        /// Set the held mail KEY aside for good: moved to quarantine/dropped/, never read.
        #[arg(long, value_name = "KEY")]
        drop: Option<String>,
    },
    /// Show a game as one seat sees it.
    Show {
        /// The game's id.
        game: String,
        /// The seat whose view to show (or `spectator`).
        #[arg(long = "as", value_name = "SEAT")]
        seat: String,
        /// text, svg, or png (800 px wide, as in the results mails).
        #[arg(long, default_value = "text", value_parser = ["text", "svg", "png"])]
        format: String,
        /// Write to a file instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Write a game's archive: a static web site with every step's log, map and dice and how to
    /// verify them. During play only what a spectator may see; after the end, everything.
    Archive {
        /// The game's id.
        game: String,
        /// The folder to write (replaced whole; default <data_dir>/archive/<game>/).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Organiser actions on a game, each logged and announced to every seat.
    Gm {
        #[command(subcommand)]
        action: GmCommand,
    },
    /// Check the set-up as a new organiser gets it wrong: the config, the data folder's owner
    /// and modes, every game, the rulesets' data, the mail transports (IMAP login and folder,
    /// SMTP EHLO/STARTTLS/AUTH), the game and organiser addresses. Each problem with its fix;
    /// exit 1 if something would stop play. Run it as the service user.
    Doctor,
    /// Check a game store (by game id or folder) or a folder of received mails: the log chain,
    /// the onion, the locks and every roll. Exit 0 only if everything checks out.
    Verify {
        /// A game id (its store under data_dir), a game store folder, or a folder of mails
        /// one player received (a Maildir or any folder of .eml files).
        #[arg(value_name = "GAME-OR-FOLDER", required_unless_present = "compare")]
        target: Option<String>,
        /// Folders of mails of several seats of one game (each seat's own): each is verified,
        /// then all are held against each other — one anchor line, one result per step, one
        /// log head per index — so seats that compare catch a host who showed them two games.
        #[arg(long, num_args = 2.., value_name = "FOLDER", conflicts_with = "target")]
        compare: Vec<PathBuf>,
    },
}

#[derive(Subcommand)]
pub enum CampaignCommand {
    /// Declare a campaign and start its first battle (game NAME-1), mailing its welcomes;
    /// each later battle (NAME-2, …) starts by itself when the one before ends.
    New(CampaignNewArgs),
    /// Where a campaign stands: its battles, results, points and what comes next.
    Show {
        /// The campaign's name.
        name: String,
    },
    /// Re-derive a campaign from its battles' journals alone (each a game's store or archive
    /// folder holding journal.jsonl): every carry and the standing; exit 1 if one differs.
    Derive {
        /// The campaign's name.
        name: String,
        /// The battles' folders, in any order.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
    },
}

/// The arguments of `despatch campaign new`.
#[derive(Args)]
pub struct CampaignNewArgs {
    /// The campaign's name: a–z, 0–9 and `-`, at most 36 (its battles are games NAME-1, …).
    pub name: String,
    /// Ruleset folder under games/ (e.g. la-bataille).
    #[arg(long)]
    pub ruleset: String,
    /// A campaign the ruleset ships: games/<ruleset>/campaigns/<PLAN>.toml.
    #[arg(
        long,
        value_name = "PLAN",
        required_unless_present = "scenarios",
        conflicts_with = "scenarios"
    )]
    pub plan: Option<String>,
    /// Or a plain chain of the ruleset's scenarios, played in this order.
    #[arg(long, value_name = "A,B,C", value_delimiter = ',')]
    pub scenarios: Vec<String>,
    /// With --scenarios: a carry term of the ruleset (its README's "Campaigns"), e.g.
    /// --carry repair=false (repeat per term).
    #[arg(long = "carry", value_name = "TERM=VALUE", requires = "scenarios")]
    pub carry: Vec<String>,
    /// A seat and its player's address (as for `despatch new`), for every seat of every battle.
    #[arg(long = "seat", value_name = "SEAT=ADDRESS", required = true)]
    pub seats: Vec<String>,
    /// The campaign's organiser (default: mail.gm_address).
    #[arg(long, value_name = "ADDRESS")]
    pub gm: Option<String>,
    /// Count every battle in league L.
    #[arg(long, value_name = "L")]
    pub league: Option<String>,
}

#[derive(Subcommand)]
pub enum PlayerCommand {
    /// Make this seat's own onion (its secret stays in DIR) and print the anchor line to send
    /// to the organiser when joining a strict game.
    Init {
        /// The game's id, as the organiser gave it.
        #[arg(long)]
        game: String,
        /// Your seat.
        #[arg(long)]
        seat: String,
        /// The folder that keeps your secret (created if missing; keep it private).
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
        /// Steps the onion serves.
        #[arg(long, default_value_t = crate::dice::DEFAULT_ONION_LEN)]
        len: u64,
    },
    /// Keep the game's mail key from its welcome (a saved .eml, or - for standard input), so
    /// that `reveal` answers only lock mails the game signed. Run once per game.
    Trust {
        /// The folder given to `player init`.
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
        /// The game's welcome mail.
        #[arg(value_name = "WELCOME.eml|-")]
        mail: PathBuf,
    },
    /// Hold the results mails given (files, or folders of saved mails: a Maildir too) against
    /// the record of the reveals you gave: each must be the one your step's seed took. Exit 1 on
    /// any difference (the game used a value you never sent).
    Check {
        /// The folder given to `player init`.
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
        /// Results mails, or folders of them.
        #[arg(value_name = "MAIL.eml|FOLDER", required = true)]
        mails: Vec<PathBuf>,
    },
    /// Read a lock mail (a saved .eml, or - for standard input) and print the reply that
    /// reveals your next secret, quoting the L_k the mail showed. Only the next reveal is ever
    /// given; each is recorded in DIR first.
    Reveal {
        /// The folder given to `player init`.
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
        /// The lock mail.
        #[arg(value_name = "MAIL.eml|-")]
        mail: PathBuf,
    },
}

#[derive(Subcommand)]
pub enum GmCommand {
    /// Move the open step's deadline by some hours (negative to shorten).
    Extend {
        /// The game's id.
        game: String,
        /// Hours to move the deadline by (negative brings it forward).
        #[arg(long, allow_hyphen_values = true)]
        hours: i64,
        /// Why, as every seat is told (default: "extended by N h" or "brought forward by N h").
        #[arg(long)]
        reason: Option<String>,
    },
    /// Lock the open step now: seats that have not answered are recorded as no move received.
    /// This is how a game whose silence policy is `wait_for_gm` goes on. Refused while a
    /// strict step waits for a reveal (docs/strict-dice.md, S2).
    CloseStep {
        /// The game's id.
        game: String,
        /// Why, as every seat is told.
        #[arg(long, default_value = "closed by the organiser")]
        reason: String,
    },
    /// End a game that cannot go on (a vanished player, a stalled strict step) with no result:
    /// no winner, no draw, the open or locked step never resolved and no dice rolled for it.
    /// Every seat and spectator is told the reason (docs/club-rules.md O1, strict-dice.md S10).
    Abandon {
        /// The game's id.
        game: String,
        /// Why, as every seat and spectator is told (required, not empty).
        #[arg(long)]
        reason: String,
    },
    /// Let an address watch the game (the spectator view, delayed per the club policy), or
    /// stop mailing it. The address stays private; the seats are told that someone watches.
    Spectator {
        /// The game's id.
        game: String,
        /// add or remove.
        #[arg(value_parser = ["add", "remove"])]
        action: String,
        /// The observer's mail address.
        address: String,
    },
    /// Carry out a one-click unsubscription (RFC 8058) by hand: the code that ends the
    /// List-Unsubscribe https URI. The same STOP as by mail (club-rules L1).
    Unsubscribe {
        /// The code (32 hex digits).
        code: String,
    },
    /// Hand a seat to a new player (a new secret is made; the old reply address stops working).
    Replace {
        /// The game's id.
        game: String,
        /// The seat to hand over.
        #[arg(long)]
        seat: String,
        /// The new player's mail address.
        #[arg(long)]
        address: String,
        /// Why, as every seat is told.
        #[arg(long, default_value = "the previous player left")]
        reason: String,
    },
    /// Stop the game's clock: no deadline passes, no reminder goes and no silence counts until
    /// `resume`; orders still arrive and are kept. Every seat is told (club-rules.md O5).
    Pause {
        /// The game's id.
        game: String,
        /// Why, as every seat is told.
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Start a paused game's clock again: the deadline is now plus the time that was left at
    /// the pause, at least an hour (club-rules.md O6). Every seat is told the new deadline.
    Resume {
        /// The game's id.
        game: String,
    },
    /// Send a message to every player of a game, or of every game in play of a league (one
    /// mail per player address). Journaled as a digest, as press is (club-rules.md O7).
    Broadcast {
        /// The game's id (or, with --league, nothing).
        #[arg(required_unless_present = "league", conflicts_with = "league")]
        game: Option<String>,
        /// Every game in play of this league instead.
        #[arg(long, value_name = "L")]
        league: Option<String>,
        /// The message, as every player reads it.
        #[arg(long)]
        message: String,
    },
    /// Show the organiser's desk address: mail from ADDRESS to it runs the organiser's games
    /// by mail (EXTEND, CLOSE, REPLACE, PAUSE, RESUME, BROADCAST, GAMES; club-rules.md O2).
    /// Keep it private: it is the key to the desk.
    Address {
        /// The organiser's address (default: mail.gm_address of the config).
        address: Option<String>,
    },
    /// Refuse a seat's absence (its newest one not yet ended): the deadline moved for it comes
    /// back, and every seat is told.
    RefuseAbsence {
        /// The game's id.
        game: String,
        /// The seat whose absence is refused.
        seat: String,
        /// Why, as every seat is told.
        #[arg(long, default_value = "")]
        reason: String,
    },
}

/// The arguments of `despatch new`.
#[derive(Args)]
pub struct NewArgs {
    /// Game id: a–z, 0–9 and `-` (it appears in subjects and reply addresses).
    pub game: String,
    /// Ruleset folder under games/ (e.g. naval-rjw).
    #[arg(long)]
    pub ruleset: String,
    /// Scenario name under games/<ruleset>/scenarios/ (without .toml).
    #[arg(long)]
    pub scenario: String,
    /// A seat and its player's address, e.g. --seat japan=togo@example.org, or with the
    /// player's name for lists and league tables: --seat "japan=Heihachiro Togo
    /// <togo@example.org>" (players may set it later by mail: NAME …). Repeat per seat, in the
    /// scenario's side order.
    #[arg(long = "seat", value_name = "SEAT=ADDRESS", required = true)]
    pub seats: Vec<String>,
    /// The game's organiser, who hears of resignations, held mail, trouble and PRESS TO gm
    /// (default: mail.gm_address of the config).
    #[arg(long, value_name = "ADDRESS")]
    pub gm: Option<String>,
    /// Strict dice for a seat: its anchor line from `despatch player init`, either
    /// `SEAT=ANCHOR[:LENGTH]` or the whole `STRICT SEAT ANCHOR LENGTH` line (repeat per seat).
    #[arg(long = "strict-seat", value_name = "SEAT=ANCHOR")]
    pub strict_seats: Vec<String>,
    /// Hours a strict seat has to reveal after each lock that rolls dice.
    #[arg(long, default_value_t = crate::engine::strict::DEFAULT_REVEAL_HOURS)]
    pub reveal_hours: u32,
    /// Count the game in league L (same characters as a game id); its points rule is
    /// <data_dir>/leagues/L.toml, made on first use (win 3, draw 1, loss 0).
    #[arg(long, value_name = "L")]
    pub league: Option<String>,
    /// Campaign: start from what finished game G left each side (its losses gone from
    /// the scenario), where the ruleset allows it (naval-rjw, gear-krieg).
    #[arg(long, value_name = "G")]
    pub carry_from: Option<String>,
}
