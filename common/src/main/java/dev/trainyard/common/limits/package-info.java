/** Rate limits shared by the services: the token bucket arithmetic. */
package dev.trainyard.common.limits;
