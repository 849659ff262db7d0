// Report lines of a record prepared with its chunk, written when its outcome is (the report keeps
// record order), once.
export class Notes {
  private lines: Array<() => void> = []
  add(line: () => void): void {
    this.lines.push(line)
  }
  report(): void {
    for (const line of this.lines.splice(0)) line()
  }
}
