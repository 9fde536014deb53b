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
  /** Where the next entry goes once the buffer is full (a push is then O(1), not a shift of 2,000). */
  private next = 0;

  constructor(private readonly capacity = 2000) {}

  push(entry: LogEntry): void {
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
      return;
    }
    this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Newest first, as Metabase's log viewer expects. */
  recent(): LogEntry[] {
    return [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)].reverse();
  }
}
