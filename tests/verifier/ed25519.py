"""Ed25519 signature verification written from RFC 8032 (section 5.1), standard library only,
for verify_mails.py: "pure" Ed25519 (SHA-512, no context). It verifies; it never signs, and it
holds no secret. Speed is not its aim (a few milliseconds a signature): clarity is.

    verify(public_key: bytes, message: bytes, signature: bytes) -> bool
"""

import hashlib

P = 2**255 - 19  # the field prime (5.1)
L = 2**252 + 27742317777372353535851937790883648493  # the order of the base point B
D = -121665 * pow(121666, P - 2, P) % P  # the curve constant d = -121665/121666
SQRT_M1 = pow(2, (P - 1) // 4, P)  # a square root of -1, for the second candidate of x


def _recover_x(y: int, sign: int):
    """5.1.3 steps 2-4: x from y and x's low bit, or None when no point has this y."""
    if y >= P:
        return None
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if (v * x * x - u) % P != 0:
        if (v * x * x + u) % P != 0:
            return None
        x = x * SQRT_M1 % P
    if x == 0 and sign == 1:
        return None
    return P - x if x & 1 != sign else x


def decode_point(s: bytes):
    """5.1.3: 32 bytes, little-endian y with x's low bit in the top bit; extended (X, Y, Z, T)."""
    if len(s) != 32:
        return None
    y = int.from_bytes(s, "little")
    sign, y = y >> 255, y & ((1 << 255) - 1)
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % P)


def encode_point(pt) -> bytes:
    """5.1.2: y with the low bit of x on top, after leaving projective coordinates."""
    x, y, z, _ = pt
    zi = pow(z, P - 2, P)
    x, y = x * zi % P, y * zi % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def add(p1, p2):
    """5.1.4: addition in extended coordinates (complete: it also doubles)."""
    x1, y1, z1, t1 = p1
    x2, y2, z2, t2 = p2
    a, b = (y1 - x1) * (y2 - x2) % P, (y1 + x1) * (y2 + x2) % P
    c, d = t1 * 2 * D * t2 % P, z1 * 2 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def multiply(n: int, pt):
    """[n]P by double-and-add."""
    q = (0, 1, 1, 0)  # the neutral element
    while n > 0:
        if n & 1:
            q = add(q, pt)
        pt, n = add(pt, pt), n >> 1
    return q


def equal(p1, p2) -> bool:
    """Two points in projective coordinates: X1/Z1 = X2/Z2 and Y1/Z1 = Y2/Z2."""
    x1, y1, z1, _ = p1
    x2, y2, z2, _ = p2
    return (x1 * z2 - x2 * z1) % P == 0 and (y1 * z2 - y2 * z1) % P == 0


_BY = 4 * pow(5, P - 2, P) % P
B = (_recover_x(_BY, 0), _BY, 1, _recover_x(_BY, 0) * _BY % P)  # the base point (5.1)


def public_key(secret: bytes) -> bytes:
    """5.1.5: the public key of a 32-byte secret (for the self-test's known answers only)."""
    h = hashlib.sha512(secret).digest()
    a = int.from_bytes(h[:32], "little")
    a = (a & ((1 << 254) - 8)) | (1 << 254)  # clear the low 3 bits and bit 255, set bit 254
    return encode_point(multiply(a, B))


def verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """5.1.7: R and A must decode, S < L, and [S]B = R + [k]A with k = SHA-512(R || A || M)."""
    if len(signature) != 64 or len(public) != 32:
        return False
    a, r = decode_point(public), decode_point(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= L:
        return False
    k = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little")
    return equal(multiply(s, B), add(r, multiply(k, a)))
