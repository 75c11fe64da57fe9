/** A target of the bench and what a run measured against it. */
export interface Goal {
  name: string;
  target: string;
  actual: string;
  met: boolean;
}
