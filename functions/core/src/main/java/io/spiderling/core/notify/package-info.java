/**
 * Telling a client about its batch: the webhook deliveries Spiderling POSTs to a client's callback URL, as pure
 * decisions and formats that the notify function applies.
 *
 * <ul>
 *   <li>{@link io.spiderling.core.notify.CallbackEvent}: what a delivery says (counts by state, done or not) and
 *       its JSON body, with an event id that is the same on every retry.</li>
 *   <li>{@link io.spiderling.core.notify.UrlChangedEvent}: a page changed (ADR 18); the listeners' body, and the
 *       webhook's with the batch's id, under one event id.</li>
 *   <li>{@link io.spiderling.core.notify.ProgressSchedule}: when the n-th progress report of a running batch is due,
 *       and how long a queue message should wait for it.</li>
 *   <li>{@link io.spiderling.core.notify.WebhookSignature}: the HMAC headers on every delivery, and the check a
 *       receiver runs on them.</li>
 *   <li>{@link io.spiderling.core.notify.DeliveryPolicy}: after an attempt, delivered, retry after an equal-jitter
 *       backoff (10 s doubling, at most 15 min, 8 attempts), or give up (3xx, most 4xx, a blocked address).</li>
 *   <li>{@link io.spiderling.core.notify.CallbackPolicy}: which callback URLs may be called at all, at submit and
 *       again at send: https, an allow-listed host, and only public addresses, so a callback cannot be aimed at the
 *       metadata service or the VPC.</li>
 * </ul>
 *
 * <p>Nothing here opens a socket, reads the clock or draws a random number: the time and the jitter are arguments, and
 * name resolution is a function the caller injects, so every rule is table-tested in milliseconds with a fake DNS.
 */
package io.spiderling.core.notify;
