/** Spring wiring of the gateway: properties and the route table. */
package dev.trainyard.gateway.config;
