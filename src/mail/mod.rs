//! Mail transports and MIME: Maildir in and out, parsing inbound mail, building outbound mail.
