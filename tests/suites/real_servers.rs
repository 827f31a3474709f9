//! Test suite: the real-server tier: Dovecot and Postfix on loopback.
//! One binary per suite (see `suite_membership.rs`): every file named here is a module of it,
//! and the helpers they share are compiled once, at the top.

#[path = "../e2e/common.rs"]
mod common;

#[path = "../e2e_crash_points.rs"]
mod e2e_crash_points;
#[path = "../e2e_doctor.rs"]
mod e2e_doctor;
#[path = "../e2e_held.rs"]
mod e2e_held;
#[path = "../e2e_mail.rs"]
mod e2e_mail;

#[path = "../deployment.rs"]
mod deployment;
