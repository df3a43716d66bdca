package dev.trainyard.common.command;

import dev.trainyard.common.queue.WireEnum;

/**
 * The state of one CI status on a commit ({@code /v1/ci/reportStatus}): lower case on input, the
 * hosting platform's upper case in testing details.
 */
public enum CommitState implements WireEnum {
  PENDING,
  SUCCESS,
  FAILURE,
  ERROR;

  public boolean isRed() {
    return this == FAILURE || this == ERROR;
  }
}
