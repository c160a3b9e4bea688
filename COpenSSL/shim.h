/*
 * OpenSSL's libcrypto, behind its own system-library target: every cryptographic
 * primitive survey uses comes from here, never written by hand. Debian's libssl-dev
 * (the binary then needs libssl3, which the .deb's Depends names).
 *
 * Only the EVP interface is used: it picks the implementation (and any hardware
 * acceleration) and is the one OpenSSL 3 keeps stable.
 */
#include <openssl/evp.h>
#include <openssl/err.h>
