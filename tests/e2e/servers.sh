#!/usr/bin/env bash
# Real mail servers for the end-to-end tier: Dovecot (IMAP, LMTP) and Postfix (SMTP) on
# loopback, with a test CA, virtual users and plus-addressing. Needs root (CI runs as root).
#
#   servers.sh install      apt-get the Debian packages (dovecot-imapd, dovecot-lmtpd, postfix, swaks,
#                           and chromium and python3 for the independent dice verifiers)
#   servers.sh setup        write the configuration, users and certificates, then start both
#   servers.sh start|stop   both servers
#   servers.sh stop-smtp|start-smtp|restart-imap   for the outage tests
#   servers.sh env          print the environment the tests read
#
# Ports (127.0.0.1): 10025 SMTP for players' clients (no auth), 10587 submission (STARTTLS,
# auth), 10465 submission (implicit TLS, auth), 10143 IMAP (STARTTLS), 10993 IMAPS,
# 10024 LMTP and 10026 auth (Dovecot, for Postfix only).
set -euo pipefail

ROOT=${DESPATCH_E2E_ROOT:-/var/lib/despatch-e2e}
CONF=$ROOT/dovecot.conf
USERS="despatch togo vitgeft makarov gm bench"

install() {
    export DEBIAN_FRONTEND=noninteractive
    if ! command -v dovecot >/dev/null || ! command -v postfix >/dev/null || ! command -v swaks >/dev/null \
        || ! [ -e /usr/lib/dovecot/lmtp ]; then
        echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends dovecot-imapd dovecot-lmtpd postfix swaks openssl ca-certificates >/dev/null
    fi
    # tests/systemd_unit.rs checks the shipped unit with systemd-analyze.
    if ! command -v systemd-analyze >/dev/null; then
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends systemd >/dev/null
    fi
    # tests/browser_verifier.rs runs templates/verifier.html in headless Chromium; python3 runs
    # the independent dice verifier of tests/python_verifier.rs.
    if ! [ -x /usr/bin/chromium ] || ! command -v python3 >/dev/null; then
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends chromium python3 >/dev/null
    fi
}

certs() {
    mkdir -p "$ROOT/tls"
    cd "$ROOT/tls"
    [ -f ca.crt ] && return 0
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=Despatch test CA" \
        -keyout ca.key -out ca.crt 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1,DNS:mail.despatch.test\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > ext.cnf
    openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 \
        -extfile ext.cnf -out server.crt 2>/dev/null
    chmod 644 server.crt ca.crt
    chmod 640 server.key
}

dovecot_conf() {
    id despatchmail >/dev/null 2>&1 || useradd -r -M -d /nonexistent -s /usr/sbin/nologin despatchmail
    mkdir -p "$ROOT/mail" "$ROOT/dovecot-state" /run/despatch-dovecot
    chown despatchmail:despatchmail "$ROOT/mail"
    : > "$ROOT/users"
    for u in $USERS; do echo "$u:{PLAIN}$u-pass" >> "$ROOT/users"; done
    cat > "$CONF" <<EOF
base_dir = /run/despatch-dovecot
state_dir = $ROOT/dovecot-state
protocols = imap lmtp
listen = 127.0.0.1
log_path = $ROOT/dovecot.log
ssl = yes
ssl_cert = <$ROOT/tls/server.crt
ssl_key = <$ROOT/tls/server.key
ssl_min_protocol = TLSv1.2
disable_plaintext_auth = yes
auth_mechanisms = plain login
auth_username_format = %Ln
mail_location = maildir:$ROOT/mail/%n
mail_uid = despatchmail
mail_gid = despatchmail
first_valid_uid = 1
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
shutdown_clients = yes
# A copy of each IMAP session's commands, only for users whose folder here exists: the mail
# bench makes rawlog/despatch to count the commands Despatch sends per order mail.
rawlog_dir = $ROOT/rawlog/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n $ROOT/users
}
userdb {
  driver = static
  args = uid=despatchmail gid=despatchmail home=$ROOT/mail/%n
}
namespace inbox {
  inbox = yes
  separator = /
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = 10143
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = 10993
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = 10024
  }
}
service auth {
  inet_listener {
    address = 127.0.0.1
    port = 10026
  }
}
EOF
}

postfix_conf() {
    local vmap=$ROOT/vmailbox
    : > "$vmap"
    for u in $USERS; do echo "$u@despatch.test OK" >> "$vmap"; done
    cat > /etc/postfix/main.cf <<EOF
compatibility_level = 3.6
myhostname = mail.despatch.test
mydomain = despatch.test
myorigin = despatch.test
inet_interfaces = loopback-only
inet_protocols = ipv4
mydestination =
local_transport = error:local delivery is disabled
virtual_mailbox_domains = despatch.test
virtual_mailbox_maps = texthash:$vmap
virtual_transport = lmtp:inet:127.0.0.1:10024
recipient_delimiter = +
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks permit_sasl_authenticated reject_unauth_destination
smtpd_tls_cert_file = $ROOT/tls/server.crt
smtpd_tls_key_file = $ROOT/tls/server.key
smtpd_tls_security_level = may
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:10026
smtpd_sasl_auth_enable = no
smtp_tls_security_level = none
maillog_file = $ROOT/postfix.log
message_size_limit = 20480000
biff = no
append_dot_mydomain = no
delay_warning_time = 0
EOF
    cat > /etc/postfix/master.cf <<'EOF'
127.0.0.1:10025 inet n - n - - smtpd
127.0.0.1:10587 inet n - n - - smtpd
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
127.0.0.1:10465 inet n - n - - smtpd
  -o smtpd_tls_wrappermode=yes
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
EOF
    newaliases 2>/dev/null || true
}

start_dovecot() {
    mkdir -p /run/despatch-dovecot
    if [ -f /run/despatch-dovecot/master.pid ] && kill -0 "$(cat /run/despatch-dovecot/master.pid)" 2>/dev/null; then
        return 0
    fi
    dovecot -c "$CONF" </dev/null >/dev/null 2>&1
}

stop_dovecot() {
    doveadm -c "$CONF" stop 2>/dev/null || true
    # A restarted server drops its clients: make sure no old IMAP process lingers on.
    pkill -f 'dovecot/imap' 2>/dev/null || true
    for _ in $(seq 50); do
        [ -f /run/despatch-dovecot/master.pid ] || return 0
        kill -0 "$(cat /run/despatch-dovecot/master.pid)" 2>/dev/null || return 0
        sleep 0.1
    done
}

start_postfix() { postfix status >/dev/null 2>&1 || postfix start >/dev/null 2>&1; }
stop_postfix() { postfix stop >/dev/null 2>&1 || true; }

wait_port() {
    for _ in $(seq 100); do
        (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "port $1 did not open" >&2
    return 1
}

case "${1:-}" in
    install) install ;;
    setup)
        install
        certs
        dovecot_conf
        postfix_conf
        stop_postfix
        stop_dovecot
        start_dovecot
        start_postfix
        for p in 10025 10587 10465 10143 10993 10024; do wait_port "$p"; done
        echo "mail servers up on 127.0.0.1 (data in $ROOT)"
        ;;
    start) start_dovecot; start_postfix; for p in 10025 10143; do wait_port "$p"; done ;;
    stop) stop_postfix; stop_dovecot ;;
    stop-smtp) stop_postfix ;;
    start-smtp) start_postfix; wait_port 10587 ;;
    restart-imap) stop_dovecot; start_dovecot; wait_port 10143 ;;
    env)
        echo "DESPATCH_E2E=1"
        echo "DESPATCH_E2E_ROOT=$ROOT"
        echo "DESPATCH_E2E_CA=$ROOT/tls/ca.crt"
        ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
esac
