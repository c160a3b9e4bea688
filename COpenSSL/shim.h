/*
 * OpenSSL's libcrypto, behind its own system-library target: every cryptographic
 * primitive survey uses comes from here, never written by hand. Debian's libssl-dev
 * (the binary then needs libssl3, which the .deb's Depends names).
 *
 * The EVP interface picks the implementation (and any hardware acceleration) and is the
 * one OpenSSL 3 keeps stable: digests, AES, RSA-OAEP through EVP_PKEY_CTX. The other
 * headers are what ODK's encrypted submissions need around it (Sources/SurveyModel/Crypto):
 * rsa.h for the OAEP and key-size parameters, pem.h/bio.h/x509.h/pkcs12.h to read and
 * write keys (PKCS#1, PKCS#8, SubjectPublicKeyInfo, passphrase-encrypted PKCS#8), rand.h
 * for the AES keys and salts, objects.h for the PBKDF2 PRF's identifier.
 */
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/rsa.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/pkcs12.h>
#include <openssl/rand.h>
#include <openssl/objects.h>
