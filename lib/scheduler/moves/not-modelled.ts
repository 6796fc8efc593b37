/**
 * What the reference refuses as not modelled: answered from Nova's
 * conductor code (filled in below).
 */
import type { ScheduleOptions, ScheduleRun, Scheduler } from "../engine";
import type { Scenario } from "../scenario";
import { type Move, ScenarioError } from ".";

export function answerBeyondReference(
  move: Move,
  _s: Scheduler,
  _run: ScheduleRun,
  _scenario: Scenario,
  _options: ScheduleOptions,
): void {
  throw new ScenarioError(`not modelled: ${move.beyondReference}`);
}
