/**
 * The Markdown of a page's main content, for readers and language models that want the article and not the page
 * around it. Like the extract package it is a pure function of the stored bytes and the response's Content-Type: it
 * can be re-run and gives the same answer, and it never throws on bad HTML.
 *
 * <p>Finding the main content and writing Markdown are both left to maintained libraries (Readability4J and flexmark,
 * ADR 20); this package decodes the page, makes its links absolute, keeps what those libraries would lose (the
 * language of a code block), and bounds the work.
 */
package io.spiderling.core.markdown;
