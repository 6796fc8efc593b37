/**
 * What Nova's logs say about one scheduling call, in our words. The rest of
 * lib/ sees these types only, never a log line's text format.
 */

/** A host as Nova's HostState prints it: "(host, node) ram: 1024MB disk: 10240MB io_ops: 0 instances: 2". */
export interface LoggedHostState {
  host: string;
  node: string;
  /** free_ram_mb, free_disk_mb, num_io_ops and num_instances Nova's scheduler saw. */
  freeRamMb: number;
  freeDiskMb: number;
  ioOps: number;
  instances: number;
}

export interface LoggedFilter {
  name: string;
  /** Hosts the filter left ("Filter X returned N host(s)"). */
  hostsLeft: number;
  /** Hosts it removed, where the log names them (a filter's own DEBUG line, or the full "Filtering removed all hosts" list). */
  removed: string[];
  /** The filter's own words for each removed host, parallel to `removed` ("" where it logged none). */
  reasons: string[];
}

export interface LoggedWeighedHost {
  host: string;
  node: string;
  weight: number;
}

/** One weigher's share of one host's weight, from nova.weights' DEBUG lines (Zed and later). */
export interface LoggedWeigherShare {
  raw: number | null;
  normalized: number | null;
  multiplier: number | null;
}

/** One run of the filters and weighers: once per instance, plus once more for the alternates of a multi-instance request. */
export interface LoggedPass {
  /** "Starting with N host(s)"; null when the log does not say (INFO). */
  startedWith: number | null;
  filters: LoggedFilter[];
  /** The hosts left after filtering ("Filtered [...]"), with the state Nova printed. */
  filtered: LoggedHostState[] | null;
  weighed: LoggedWeighedHost[] | null;
  /** nova.weights' lines of this pass as logged; read with weigherShares() (most callers never need them). */
  weigherLines: string[];
  selected: { host: string; node: string; instance: string | null } | null;
  /** true when every instance already had its host: this pass picks alternates. */
  alternates: boolean;
}

/** oslo.log INFO "Filtering removed all hosts ... Filter results: [...]". */
export interface LoggedFilterResults {
  instance: string | null;
  /** Each filter with the hosts it started and ended with; `hosts` lists the survivors when the DEBUG form names them. */
  filters: Array<{ name: string; start: number | null; end: number; hosts: string[] | null }>;
}

export type LoggedError = "NoValidHost" | null;

export interface SchedulingCall {
  /** Stable within one reading: request id + attempt. */
  id: string;
  requestId: string;
  /** 1 for the request's first scheduling call, 2 for a reschedule or a live-migration retry, ... */
  attempt: number;
  /** Where the call's first line was read (file name and line number). */
  source: { file: string; line: number };
  pid: number | null;
  /** ms since the epoch of the first and last line. */
  started: number;
  ended: number;
  instanceUuids: string[];
  /** The scheduler's logger: nova.scheduler.manager (Xena and later) or nova.scheduler.filter_scheduler (before). */
  schedulerLogger: string | null;
  /** Whether the call's DEBUG lines are in the log (false: INFO only, the default level). */
  debug: boolean;
  passes: LoggedPass[];
  /** Selected host per instance, in order. */
  selected: Array<{ instance: string | null; host: string; node: string }>;
  error: LoggedError;
  /** Nova's words for the error ("There are 0 hosts available but 1 instances requested to build."). */
  errorDetail: string | null;
  filterResults: LoggedFilterResults | null;
  placement: {
    /** "Got no allocation candidates from the Placement API." */
    noCandidates: boolean;
    /** "Requesting fallback allocation candidates with VCPU instead of PCPU" */
    pcpuFallback: boolean;
    /** "Unable to successfully claim against any host." */
    claimFailed: boolean;
    /** Hosts whose allocation request did not match ("A host state with uuid = ... did not have a matching allocation_request"). */
    unmatched: number;
  };
  /**
   * The allocation-candidates query Placement logged for this request (placement-api's
   * request log carries Nova's request id as its global request id), when that log was read.
   */
  placementQuery: string | null;
  /** Lines of this call that were read. */
  lines: number;
}

export interface ReadStats {
  files: number;
  bytes: number;
  lines: number;
  /** Lines that are not oslo.log / journald lines: counted and skipped. */
  unparsed: number;
  /** Lines longer than the limit: skipped. */
  tooLong: number;
  /** Lines with NUL bytes or invalid UTF-8: skipped. */
  binary: number;
  /** Files refused, with why (not text, truncated gzip, ...). */
  refused: Array<{ file: string; reason: string }>;
  calls: number;
}
