/** Values read from a file or a secret and read again now and then, so that a rotation needs no redeploy. */
package io.spiderling.core.refresh;
