//! Hostile mails for the intake's linear-time guard (`tests/intake_hostile.rs`) and its benchmark
//! (`benches/intake.rs`): each case is a whole RFC 5322 message of about the asked size, built to
//! hit one place where a careless parser goes quadratic. Generators only; no assertions here.

#![allow(dead_code)]

/// A message from an unknown sender with the given extra headers and body.
pub fn message(extra_headers: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "From: Stranger <stranger@evil.example>\r\n\
         To: despatch+yellow-sea-1.japan.k7q2m9x4@club.example\r\n\
         Subject: Re: [yellow-sea-1] orders\r\n\
         Message-ID: <hostile@evil.example>\r\n\
         MIME-Version: 1.0\r\n{extra_headers}\r\n"
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

/// `unit` repeated until `size` bytes.
pub fn fill(unit: &str, size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size + unit.len());
    while out.len() < size {
        out.extend_from_slice(unit.as_bytes());
    }
    out
}

fn text(ctype: &str, body: Vec<u8>) -> Vec<u8> {
    message(
        &format!("Content-Type: {ctype}\r\nContent-Transfer-Encoding: 8bit\r\n"),
        &body,
    )
}

fn html(body: Vec<u8>) -> Vec<u8> {
    text("text/html; charset=utf-8", body)
}

fn plain(body: Vec<u8>) -> Vec<u8> {
    text("text/plain; charset=utf-8", body)
}

fn flowed(body: Vec<u8>) -> Vec<u8> {
    text("text/plain; charset=utf-8; format=flowed; delsp=yes", body)
}

/// A multipart/mixed message whose body repeats `part` (which must start with the boundary
/// line `--b`) until `size`.
fn multipart(subtype: &str, part: &str, size: usize) -> Vec<u8> {
    let mut body = fill(part, size);
    body.extend_from_slice(b"--b--\r\n");
    message(
        &format!("Content-Type: multipart/{subtype}; boundary=\"b\"\r\n"),
        &body,
    )
}

/// `count` distinct addresses, comma-separated, about `size` bytes in all.
fn addresses(size: usize) -> String {
    let mut out = String::with_capacity(size + 64);
    let mut n = 0u64;
    while out.len() < size {
        out.push_str(&format!("p{n}@club.example,\r\n "));
        n += 1;
    }
    out.push_str("last@club.example");
    out
}

/// A multipart/mixed message of distinct parts of one type: `body` with `{n}` numbered.
fn distinct_parts(ctype: &str, body: &str, size: usize) -> Vec<u8> {
    let mut out = String::with_capacity(size + 64);
    let mut n = 0u64;
    while out.len() < size {
        out.push_str(&format!("--b\r\nContent-Type: {ctype}\r\n\r\n"));
        out.push_str(&body.replace("{n}", &n.to_string()));
        out.push_str("\r\n");
        n += 1;
    }
    out.push_str("--b--\r\n");
    message(
        "Content-Type: multipart/mixed; boundary=\"b\"\r\n",
        out.as_bytes(),
    )
}

/// Header lines `line` with `{n}` numbered, about `size` bytes in all.
fn distinct_headers(line: &str, size: usize) -> String {
    let mut out = String::with_capacity(size + 64);
    let mut n = 0u64;
    while out.len() < size {
        out.push_str(&line.replace("{n}", &n.to_string()));
        out.push_str("\r\n");
        n += 1;
    }
    out
}

/// A multipart/mixed body nested `size / 64` levels deep, a text part at the bottom.
fn nested_multipart(size: usize) -> Vec<u8> {
    let depth = size / 64;
    let mut nested = String::with_capacity(size + 64);
    for level in 0..depth {
        nested.push_str(&format!(
            "--n{level}\r\nContent-Type: multipart/mixed; boundary=\"n{}\"\r\n\r\n",
            level + 1
        ));
    }
    nested.push_str(&format!(
        "--n{depth}\r\nContent-Type: text/plain\r\n\r\nTURN Mikasa PORT 30\r\n"
    ));
    message(
        "Content-Type: multipart/mixed; boundary=\"n0\"\r\n",
        nested.as_bytes(),
    )
}

/// A header line of about `size` bytes: `start` then `unit` repeated, and a short body.
fn long_header(start: &str, unit: &str, size: usize) -> Vec<u8> {
    let mut line = String::from(start);
    while line.len() < size {
        line.push_str(unit);
    }
    line.push_str("\r\n");
    message(&line, b"PASS\r\n")
}

/// A hostile case: its name (family first: `html:`, `plain:`, `flowed:`, `headers:`, `mime:`)
/// and how to build it at about a given size.
pub type Recipe = (&'static str, fn(usize) -> Vec<u8>);

/// Every hostile case built at about `size` bytes: (name, raw message).
pub fn cases(size: usize) -> Vec<(&'static str, Vec<u8>)> {
    recipes()
        .into_iter()
        .map(|(name, make)| (name, make(size)))
        .collect()
}

/// Every hostile case, unbuilt.
pub fn recipes() -> Vec<Recipe> {
    vec![
        // The reported case: entity decoding searched the rest of the text for `;`.
        ("html: & without ;", |size| html(fill("&", size))),
        ("html: &# and &amp without ;", |size| {
            html(fill("&#x41&amp&nbsp", size))
        }),
        ("html: < without >", |size| html(fill("<", size))),
        ("html: < a quote", |size| html(fill("<a title=\"x>", size))),
        ("html: <!-- unclosed", |size| html(fill("<!--", size))),
        ("html: nested tags", |size| {
            html(fill("<div><blockquote><p><b>", size))
        }),
        ("html: many blocks", |size| {
            html(fill("<div>FIRE Fuji AT Pobeda</div>", size))
        }),
        ("html: unclosed <style>", |size| {
            html(fill("<style>x", size))
        }),
        ("html: one long word", |size| html(fill("x", size))),
        ("html: valid entities", |size| {
            html(fill("&amp;&#x41;&nbsp;", size))
        }),
        ("html: stray closing quotes", |size| {
            html(fill("</blockquote>x", size))
        }),
        ("plain: quote lines", |size| {
            plain(fill("> Your orders?\n", size))
        }),
        ("plain: interleaved", |size| {
            plain(fill("> Mikasa?\n\nTURN Mikasa PORT 30\n\n", size))
        }),
        ("plain: attribution, blanks, quote", |size| {
            plain(fill("On Mon, Despatch wrote:\n\n\n\n\n\n\n\n> x\n", size))
        }),
        ("plain: placeholders", |size| {
            plain(fill("[image: map.png]\n[cid:x]\n", size))
        }),
        ("plain: attributions", |size| {
            plain(fill("On Mon, 3 Jun 2024, Despatch wrote:\n", size))
        }),
        ("plain: wrapped attributions", |size| {
            plain(fill("On Mon, 3 Jun 2024\n", size))
        }),
        ("plain: From: without Sent:", |size| {
            plain(fill("From: a@b\n", size))
        }),
        ("plain: rules and blanks", |size| {
            plain(fill("__________\n\n\n\n", size))
        }),
        ("plain: one long line", |size| {
            plain(fill("TURN Mikasa PORT 30 ", size))
        }),
        ("plain: empty lines", |size| plain(fill("\n", size))),
        ("plain: control lines", |size| {
            plain(fill("GAME yellow-sea-1\nTOKEN k7q2m9x4\nHELP\n", size))
        }),
        ("plain: PGP armour lines", |size| {
            plain(fill("-----BEGIN PGP SIGNED MESSAGE-----\n", size))
        }),
        ("flowed: soft breaks", |size| flowed(fill("TURN \n", size))),
        ("flowed: changing depth", |size| {
            flowed(fill(">>> a \n> b \nc \n", size))
        }),
        ("flowed: deep quote", |size| flowed(fill(">", size))),
        ("headers: long subject", |size| {
            long_header("Subject: ", "Re: [a] Fwd: [", size)
        }),
        ("headers: encoded words", |size| {
            long_header("Subject:", " =?utf-8?q?TURN_Mikasa_=E2=80=99?=\r\n", size)
        }),
        ("headers: folded header", |size| {
            long_header("X-Folded: a", "\r\n a", size)
        }),
        ("headers: many To", |size| {
            message(&format!("Cc: {}\r\n", addresses(size)), b"PASS\r\n")
        }),
        ("headers: many Delivered-To", |size| {
            message(
                &String::from_utf8(fill("Delivered-To: despatch+a.b.c@club.example\r\n", size))
                    .unwrap_or_default(),
                b"PASS\r\n",
            )
        }),
        ("headers: many distinct Delivered-To", |size| {
            message(
                &distinct_headers("Delivered-To: p{n}@club.example", size),
                b"PASS\r\n",
            )
        }),
        ("headers: many headers", |size| {
            message(&distinct_headers("X-Filler-{n}: x", size), b"PASS\r\n")
        }),
        ("headers: many References", |size| {
            message(
                &format!(
                    "References:{}\r\n",
                    String::from_utf8(fill(" <a@b>", size)).unwrap_or_default()
                ),
                b"PASS\r\n",
            )
        }),
        ("mime: many text parts", |size| {
            multipart(
                "mixed",
                "--b\r\nContent-Type: text/plain\r\n\r\nPASS\r\n",
                size,
            )
        }),
        ("mime: many HTML parts", |size| {
            multipart(
                "mixed",
                "--b\r\nContent-Type: text/html\r\n\r\n<p>PASS</p>\r\n",
                size,
            )
        }),
        ("mime: many distinct HTML parts", |size| {
            distinct_parts("text/html", "<p>FIRE Fuji AT Pobeda {n}</p>", size)
        }),
        ("mime: many forwarded mails", |size| {
            multipart(
                "mixed",
                "--b\r\nContent-Type: message/rfc822\r\n\r\nFrom: a@b\r\n\r\nx\r\n",
                size,
            )
        }),
        ("mime: many images", |size| {
            multipart("mixed", "--b\r\nContent-Type: image/png\r\n\r\nx\r\n", size)
        }),
        ("mime: empty parts", |size| {
            multipart("mixed", "--b\r\n", size)
        }),
        ("mime: deep nesting", nested_multipart),
        ("mime: quoted-printable soft breaks", |size| {
            message(
                "Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n",
                &fill("=\r\n", size),
            )
        }),
        ("mime: base64 garbage", |size| {
            message(
                "Content-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n",
                &fill("JiYm!", size),
            )
        }),
    ]
}
