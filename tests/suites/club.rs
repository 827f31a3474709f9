//! Test suite: club features: leagues, campaigns, press, spectators, absence, concessions, status and the archive.
//! One binary per suite (see `suite_membership.rs`): every file named here is a module of it,
//! and the helpers they share are compiled once, at the top.

#[path = "../common/mail_world.rs"]
mod mail_world;
#[path = "../common/naval_mail.rs"]
mod naval_mail;
#[path = "../parley/mod.rs"]
mod parley;
#[path = "../common/world.rs"]
mod world;

#[path = "../archive_press.rs"]
mod archive_press;
#[path = "../archive_site.rs"]
mod archive_site;
#[path = "../campaign_by_mail.rs"]
mod campaign_by_mail;
#[path = "../club_abandon.rs"]
mod club_abandon;
#[path = "../club_absence.rs"]
mod club_absence;
#[path = "../club_away.rs"]
mod club_away;
#[path = "../club_calendar.rs"]
mod club_calendar;
#[path = "../club_concede_draw.rs"]
mod club_concede_draw;
#[path = "../club_concede_sides.rs"]
mod club_concede_sides;
#[path = "../club_consent.rs"]
mod club_consent;
#[path = "../club_consent_ends.rs"]
mod club_consent_ends;
#[path = "../club_desk.rs"]
mod club_desk;
#[path = "../club_league.rs"]
mod club_league;
#[path = "../club_lobby.rs"]
mod club_lobby;
#[path = "../club_one_click.rs"]
mod club_one_click;
#[path = "../club_press.rs"]
mod club_press;
#[path = "../club_ratings.rs"]
mod club_ratings;
#[path = "../club_spectators.rs"]
mod club_spectators;
#[path = "../club_status.rs"]
mod club_status;
#[path = "../club_units.rs"]
mod club_units;
#[path = "../organiser_mail.rs"]
mod organiser_mail;
#[path = "../rate_budget.rs"]
mod rate_budget;
#[path = "../site_index_kept.rs"]
mod site_index_kept;
#[path = "../site_live.rs"]
mod site_live;
