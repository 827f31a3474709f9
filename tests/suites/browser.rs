//! Test suite: a real browser (headless Chromium): mails, the archive and the in-browser verifier.
//! One binary per suite (see `suite_membership.rs`): every file named here is a module of it,
//! and the helpers they share are compiled once, at the top.

#[path = "../common/browser.rs"]
mod browser;
#[path = "../verifier/demo_mails.rs"]
mod demo_mails;
#[path = "../verifier/forgery.rs"]
mod forgery;
#[path = "../common/mail_world.rs"]
mod mail_world;
#[path = "../common/naval_mail.rs"]
mod naval_mail;
#[path = "../verifier/strict_mails.rs"]
mod strict_mails;
#[path = "../common/strict_world.rs"]
mod strict_world;
#[path = "../toy/mod.rs"]
mod toy;
#[path = "../common/world.rs"]
mod world;

#[path = "../archive_in_browser.rs"]
mod archive_in_browser;
#[path = "../browser_verifier.rs"]
mod browser_verifier;
#[path = "../club_month.rs"]
mod club_month;
#[path = "../mail_in_browser.rs"]
mod mail_in_browser;
#[path = "../phone_map.rs"]
mod phone_map;
#[path = "../phone_map_in_browser.rs"]
mod phone_map_in_browser;
#[path = "../site_in_browser.rs"]
mod site_in_browser;
