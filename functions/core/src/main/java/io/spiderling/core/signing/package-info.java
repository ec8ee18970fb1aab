/**
 * Web Bot Auth (ADR 21): the fetcher's requests signed with HTTP Message Signatures (RFC 9421) and an Ed25519 key,
 * and the key directory that lets a site check them. Pure: keys come in as JWKS text, time and nonces are passed in,
 * and nothing here touches the network or the clock.
 */
package io.spiderling.core.signing;
