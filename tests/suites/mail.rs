//! Test suite: mail in and out: intake, hostile MIME, headers, width, readability, sign-offs, settings, prompts.
//! One binary per suite (see `suite_membership.rs`): every file named here is a module of it,
//! and the helpers they share are compiled once, at the top.

#[path = "../common/hostile_mail.rs"]
mod hostile_mail;
#[path = "../common/mail_world.rs"]
mod mail_world;
#[path = "../common/naval_mail.rs"]
mod naval_mail;
#[path = "../common/table.rs"]
mod table;
#[path = "../common/world.rs"]
mod world;

#[path = "../courtesy_and_welcome.rs"]
mod courtesy_and_welcome;
#[path = "../deadline_mail.rs"]
mod deadline_mail;
#[path = "../held_failed.rs"]
mod held_failed;
#[path = "../held_mail.rs"]
mod held_mail;
#[path = "../help_reflow.rs"]
mod help_reflow;
#[path = "../hostile.rs"]
mod hostile;
#[path = "../hostile_headers.rs"]
mod hostile_headers;
#[path = "../html_parity.rs"]
mod html_parity;
#[path = "../intake_hostile.rs"]
mod intake_hostile;
#[path = "../legal_examples.rs"]
mod legal_examples;
#[path = "../mail_headers.rs"]
mod mail_headers;
#[path = "../mail_intake.rs"]
mod mail_intake;
#[path = "../mail_readable.rs"]
mod mail_readable;
#[path = "../mail_settings.rs"]
mod mail_settings;
#[path = "../mail_width.rs"]
mod mail_width;
#[path = "../notices_and_repeats.rs"]
mod notices_and_repeats;
#[path = "../one_mail_a_step.rs"]
mod one_mail_a_step;
#[path = "../optional_prompts.rs"]
mod optional_prompts;
#[path = "../orders_at_a_glance.rs"]
mod orders_at_a_glance;
#[path = "../signoffs.rs"]
mod signoffs;
#[path = "../smtp_nodelay.rs"]
mod smtp_nodelay;
#[path = "../standing_any_step.rs"]
mod standing_any_step;
#[path = "../subject_commands.rs"]
mod subject_commands;
