/** The infrastructure the standalone run (and the integration tests) start in-process. */
package dev.trainyard.standalone.infra;
