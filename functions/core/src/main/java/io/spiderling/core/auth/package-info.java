/**
 * Who may call the API, and with which secret their webhooks are signed, for deployments that keep clients in a
 * small text file instead of an identity provider ({@link io.spiderling.core.auth.Clients}).
 *
 * <p>Core only parses the text and decides: the function module reads the file or the parameter, and maps the
 * verdict onto a 401. Secrets and tokens never appear in an exception message or a {@code toString()}.
 */
package io.spiderling.core.auth;
