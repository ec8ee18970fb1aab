/**
 * JMH benchmarks of the core's pure decisions, on URL sets and HTML pages generated from a fixed seed so that every
 * run measures the same inputs; and {@link io.spiderling.benchmarks.ArticleBenchmark}, which scores the Markdown of
 * pages' main content on a public benchmark's pages that the user brings. They run only when started by hand; the
 * commands and the numbers are in docs/BENCHMARKS.md. Performance and quality are measured here, never asserted in a
 * test.
 */
package io.spiderling.benchmarks;
