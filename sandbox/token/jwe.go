package token

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// jweHeader is the protected header of token-jwe-compact's tokens.
var jweHeader = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"dir","enc":"A256GCM","cty":"JWT"}`))

// jweKey derives the content encryption key from the signing key.
func jweKey(key []byte) []byte {
	k := sha256.Sum256(append([]byte("mph-sandbox-jwe/"), key...))
	return k[:]
}

// sealJWE wraps a signed token in a JWE compact serialisation.
func sealJWE(key []byte, jws string) (string, error) {
	block, err := aes.NewCipher(jweKey(key))
	if err != nil {
		return "", err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return "", err
	}
	iv := make([]byte, gcm.NonceSize())
	if _, err := rand.Read(iv); err != nil {
		return "", err
	}
	sealed := gcm.Seal(nil, iv, []byte(jws), []byte(jweHeader))
	ct, tag := sealed[:len(sealed)-gcm.Overhead()], sealed[len(sealed)-gcm.Overhead():]
	enc := base64.RawURLEncoding.EncodeToString
	return jweHeader + ".." + enc(iv) + "." + enc(ct) + "." + enc(tag), nil
}

// openJWE unwraps a JWE compact token to the signed token inside.
func openJWE(key []byte, tok string) (string, error) {
	parts := strings.Split(tok, ".")
	if len(parts) != 5 || parts[0] != jweHeader || parts[1] != "" {
		return "", errors.New("not a JWE of this sandbox")
	}
	dec := base64.RawURLEncoding.DecodeString
	iv, err1 := dec(parts[2])
	ct, err2 := dec(parts[3])
	tag, err3 := dec(parts[4])
	if err := errors.Join(err1, err2, err3); err != nil {
		return "", err
	}
	block, err := aes.NewCipher(jweKey(key))
	if err != nil {
		return "", err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil || len(iv) != gcm.NonceSize() {
		return "", errors.New("bad JWE")
	}
	plain, err := gcm.Open(nil, iv, append(ct, tag...), []byte(parts[0]))
	return string(plain), err
}
