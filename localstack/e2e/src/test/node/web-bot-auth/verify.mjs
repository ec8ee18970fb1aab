// Checks signed requests with Cloudflare's reference implementation of Web Bot Auth (web-bot-auth 0.1.3), against
// keys taken from a published key directory (ADR 21). Reads one JSON document on stdin:
//   {"directory": {"url", "status", "headers", "body"}, "requests": [{"name", "url", "headers"}]}
// and prints one JSON document: the directory's keys with their thumbprints, each of the directory's own signatures
// (tag http-message-signatures-directory, checked with http-message-sig, the verifier's own RFC 9421 library), and
// per request whether the verifier accepted it, or the reason it did not.
import { verify, jwkToKeyID, helpers, HTTP_MESSAGE_SIGNATURE_TAG } from "web-bot-auth";
import { verifierFromJWK } from "web-bot-auth/crypto";
import * as httpsig from "http-message-sig";

const DIRECTORY_TAG = "http-message-signatures-directory";

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

function header(headers, name) {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

// A dictionary header's members, each as a header of its own: the verifier reads one signature per message.
function members(value) {
  return value === undefined ? [] : value.split(/,\s*(?=[a-z*][a-z0-9_.*-]*=)/);
}

async function keysOf(directory) {
  const keys = new Map();
  for (const jwk of JSON.parse(directory.body).keys) {
    const thumbprint = await jwkToKeyID(jwk, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE);
    keys.set(thumbprint, jwk);
  }
  return keys;
}

function keyVerifier(keys, tag) {
  return async (data, signature, params) => {
    if (params.tag !== tag) throw new Error(`tag must be '${tag}', was '${params.tag}'`);
    const jwk = keys.get(params.keyid);
    if (!jwk) throw new Error(`keyid ${params.keyid} is not in the directory`);
    await (await verifierFromJWK(jwk))(data, signature, params);
  };
}

async function outcome(check) {
  try {
    await check();
    return { accepted: true };
  } catch (e) {
    return { accepted: false, reason: String(e && e.message ? e.message : e) };
  }
}

const input = await readStdin();
const keys = await keysOf(input.directory);
const inputs = members(header(input.directory.headers, "signature-input"));
const signatures = members(header(input.directory.headers, "signature"));
const directorySignatures = [];
for (let i = 0; i < inputs.length; i++) {
  const message = {
    request: { method: "GET", url: input.directory.url, headers: {} },
    response: { status: input.directory.status, headers: { "signature-input": inputs[i], signature: signatures[i] } },
  };
  directorySignatures.push({ input: inputs[i],
    ...(await outcome(() => httpsig.verify(message, keyVerifier(keys, DIRECTORY_TAG)))) });
}
const requests = [];
for (const request of input.requests) {
  const message = { method: "GET", url: request.url, headers: request.headers };
  requests.push({ name: request.name,
    ...(await outcome(() => verify(message, keyVerifier(keys, HTTP_MESSAGE_SIGNATURE_TAG)))) });
}
process.stdout.write(JSON.stringify({
  keys: [...keys.entries()].map(([thumbprint, jwk]) => ({ thumbprint, kid: jwk.kid })),
  directorySignatures,
  requests,
}) + "\n");
