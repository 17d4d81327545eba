/**
 * The workflow engine: pure functions over a stored workflow, no database.
 * - planVerification: at session start, picks the verification node for the chosen provider;
 * - runChecks: once the source has answered, runs the checks after that node to a response and
 *   decides what is disclosed.
 */
export {
  planVerification,
  type TPlanInput,
  type TVerificationBranding,
  type TVerificationPlan,
} from "./plan";
export { runChecks, FAILURE_REASONS, type TCheckResult, type TRunInput } from "./run";
export { ageRange, isAtLeast, type TAgeRange } from "./age";
export { evaluateCondition, isClaimPresent, type TConditionContext } from "./conditions";
export type { TRunnableWorkflow } from "./nodes";
export type { TClaimFacts } from "./conditions";
export {
  joinPaths,
  nodeResults,
  traceChecks,
  traceUnauthenticated,
  traceWorkflow,
  type TCheckAnswer,
  type TNodeResult,
  type TTraceInput,
  type TWorkflowTrace,
} from "./trace";
