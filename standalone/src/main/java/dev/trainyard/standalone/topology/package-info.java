/**
 * The cluster's topology on one machine: the Helm chart rendered with {@code helm template}, each
 * rendered Deployment started as separate processes from its service's executable jar with the
 * arguments and environment the manifests give it (two queue-worker replicas, one of each other
 * service), against a broker and a store that run as processes of their own. It proves the chart's
 * wiring boots, and it is the stack of the "cluster" figures and of the chaos runs.
 *
 * <p>{@code java -jar standalone/target/trainyard-standalone-0.1.0-SNAPSHOT.jar cluster [folder]}
 * ({@link LocalCluster}).
 */
package dev.trainyard.standalone.topology;
