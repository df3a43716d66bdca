/** What the GitHub App adapter shares between the gateway and the workers. */
package dev.trainyard.common.github;
