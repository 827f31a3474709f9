//! A table's seats (`JOIN <game> [AS <seat>]`, `LEAVE <game>`) and the organiser's answer to
//! a seat that waits for approval (`APPROVE` / `REFUSE <game> [<seat>]`). Everyone else seated
//! is told; the last one out closes the table. Pure, as the whole lobby is.

use super::{
    Chair, Done, LobbyRefused, Rules, Table, Taker, ask_organiser, list_or_none, needs_approval,
    ready_check, table_text,
};

pub(super) fn join(
    tables: &mut [Table],
    rules: &Rules<'_>,
    address: &str,
    name: Option<&str>,
    game: &str,
    seat: Option<&str>,
) -> Result<Done, LobbyRefused> {
    let t = find(tables, game)?;
    if let Some(c) = t.chairs.iter().find(|c| taker_is(c, address)) {
        return Err(LobbyRefused::SeatedAlready {
            seat: c.seat.clone(),
            game: game.to_string(),
        });
    }
    let i = match seat {
        Some(s) => {
            let i = t.chairs.iter().position(|c| c.seat == s).ok_or_else(|| {
                LobbyRefused::NoSeatAtTable {
                    game: game.to_string(),
                    seat: s.to_string(),
                    free: free(t),
                }
            })?;
            if t.chairs[i].taker.is_some() {
                return Err(LobbyRefused::SeatTaken {
                    seat: s.to_string(),
                    game: game.to_string(),
                    free: free(t),
                });
            }
            i
        }
        None => t
            .chairs
            .iter()
            .position(|c| c.taker.is_none())
            .ok_or_else(|| LobbyRefused::TableFull(game.to_string()))?,
    };
    let approved = !needs_approval(rules, address);
    t.chairs[i].taker = Some(Taker {
        address: address.to_string(),
        name: name.map(str::to_string),
        approved,
    });
    let seat = t.chairs[i].seat.clone();
    let who = name.unwrap_or(address);
    let mut done = Done {
        answer: format!("You take {seat} in {game}.\n\n{}", table_text(t)),
        ..Done::default()
    };
    for other in others(t, address) {
        done.notes.push((
            other,
            format!("{who} took {seat} in {game}.\n\n{}", table_text(t)),
        ));
    }
    if !approved {
        done.answer
            .push_str("\nYour seat counts once the organiser approves it; you will be told.\n");
        let t = t.clone();
        ask_organiser(rules, &t, &seat, address, &mut done);
    }
    ready_check(tables, game, &mut done);
    Ok(done)
}

pub(super) fn leave(
    tables: &mut Vec<Table>,
    address: &str,
    game: &str,
) -> Result<Done, LobbyRefused> {
    let t = find(tables, game)?;
    let Some(c) = t.chairs.iter_mut().find(|c| taker_is(c, address)) else {
        return Err(LobbyRefused::NotSeated(game.to_string()));
    };
    c.taker = None;
    let seat = c.seat.clone();
    let mut done = Done::default();
    if t.chairs.iter().all(|c| c.taker.is_none()) {
        done.answer = format!("You left {game}; no one else was seated, so it is closed.\n");
        tables.retain(|t| t.id != game);
        return Ok(done);
    }
    done.answer = format!("You left {seat} in {game}.\n");
    for other in others(t, address) {
        done.notes.push((
            other,
            format!("{seat} in {game} is free again.\n\n{}", table_text(t)),
        ));
    }
    Ok(done)
}

pub(super) fn approve(
    tables: &mut [Table],
    rules: &Rules<'_>,
    address: &str,
    game: &str,
    seat: Option<&str>,
) -> Result<Done, LobbyRefused> {
    organiser_only(rules, address)?;
    let t = find(tables, game)?;
    let mut done = Done::default();
    let mut approved = vec![];
    for c in t.chairs.iter_mut() {
        if seat.is_some_and(|s| s != c.seat) {
            continue;
        }
        if let Some(tk) = c.taker.as_mut().filter(|tk| !tk.approved) {
            tk.approved = true;
            approved.push(c.seat.clone());
            done.notes.push((
                tk.address.clone(),
                format!("The organiser approved your seat {} in {game}.\n", c.seat),
            ));
        }
    }
    if approved.is_empty() {
        return Err(LobbyRefused::NothingToApprove {
            game: game.to_string(),
            at: seat.map(|s| format!(" at {s}")).unwrap_or_default(),
        });
    }
    done.answer = format!(
        "Approved in {game}: {}.\n\n{}",
        approved.join(", "),
        table_text(t)
    );
    ready_check(tables, game, &mut done);
    Ok(done)
}

pub(super) fn refuse(
    tables: &mut Vec<Table>,
    rules: &Rules<'_>,
    address: &str,
    game: &str,
    seat: Option<&str>,
) -> Result<Done, LobbyRefused> {
    organiser_only(rules, address)?;
    let t = find(tables, game)?;
    let mut done = Done::default();
    match seat {
        None => {
            for c in &t.chairs {
                if let Some(tk) = &c.taker {
                    done.notes.push((
                        tk.address.clone(),
                        format!("The organiser closed {game} before it started.\n"),
                    ));
                }
            }
            tables.retain(|t| t.id != game);
            done.answer = format!("{game} is closed; everyone seated is told.\n");
        }
        Some(s) => {
            let c = t.chairs.iter_mut().find(|c| c.seat == s).ok_or_else(|| {
                LobbyRefused::NoSeatToRefuse {
                    game: game.to_string(),
                    seat: s.to_string(),
                }
            })?;
            let tk = c.taker.take().ok_or_else(|| LobbyRefused::FreeAlready {
                seat: s.to_string(),
                game: game.to_string(),
            })?;
            done.notes.push((
                tk.address,
                format!("The organiser did not approve your seat {s} in {game}.\n"),
            ));
            done.answer = format!("{s} in {game} is free again; its player is told.\n");
            if t.chairs.iter().all(|c| c.taker.is_none()) {
                tables.retain(|t| t.id != game);
                done.answer
                    .push_str("No one else was seated, so the game is closed.\n");
            }
        }
    }
    Ok(done)
}

fn organiser_only(rules: &Rules<'_>, address: &str) -> Result<(), LobbyRefused> {
    if rules
        .organiser
        .is_some_and(|o| o.eq_ignore_ascii_case(address))
    {
        Ok(())
    } else {
        Err(LobbyRefused::OrganiserOnly)
    }
}

fn find<'t>(tables: &'t mut [Table], game: &str) -> Result<&'t mut Table, LobbyRefused> {
    tables
        .iter_mut()
        .find(|t| t.id == game)
        .ok_or_else(|| LobbyRefused::NoTable(game.to_string()))
}

fn taker_is(c: &Chair, address: &str) -> bool {
    c.taker
        .as_ref()
        .is_some_and(|tk| tk.address.eq_ignore_ascii_case(address))
}

fn others(t: &Table, address: &str) -> Vec<String> {
    t.chairs
        .iter()
        .filter_map(|c| c.taker.as_ref())
        .filter(|tk| !tk.address.eq_ignore_ascii_case(address))
        .map(|tk| tk.address.clone())
        .collect()
}

fn free(t: &Table) -> String {
    let f: Vec<String> = t
        .chairs
        .iter()
        .filter(|c| c.taker.is_none())
        .map(|c| c.seat.clone())
        .collect();
    list_or_none(&f)
}
