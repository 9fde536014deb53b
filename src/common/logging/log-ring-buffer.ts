/** Recent log lines, newest last, for GET /api/util/logs. Bounded so it never grows with uptime. */
export interface LogEntry {
  timestamp: string;
  level: string;
  fqns: string;
  msg: string;
  exception: string | null;
  process_uuid: string;
  request_id?: string;
}

export class LogRingBuffer {
  private readonly entries: LogEntry[] = [];
  constructor(private readonly capacity = 2000) {}

  push(entry: LogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** Newest first, as Metabase's log viewer expects. */
  recent(): LogEntry[] {
    return [...this.entries].reverse();
  }
}
