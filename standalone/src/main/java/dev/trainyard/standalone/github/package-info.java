/**
 * The standalone jar's {@code github-app} command: trainyard's GitHub App registered from its
 * manifest (GitHub's manifest flow), its key and secrets written as the Kubernetes Secret the chart
 * reads.
 */
package dev.trainyard.standalone.github;
