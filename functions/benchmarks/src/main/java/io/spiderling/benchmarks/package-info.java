/**
 * JMH benchmarks of the core's pure decisions, on URL sets and HTML pages generated from a fixed seed so that every
 * run measures the same inputs. They run only when started by hand; the commands and the numbers are in
 * docs/BENCHMARKS.md. Performance is measured here, never asserted in a test.
 */
package io.spiderling.benchmarks;
