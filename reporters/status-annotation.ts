/**
 * The 'status' annotation support/http/client.ts records for every request a test makes:
 * "<operationId> <METHOD> <path> → <status>". Reporters and Allure labels parse it back.
 */
export interface RecordedRequest {
  operation: string;
  method: string;
  path: string;
  status: number;
}

const statusAnnotation = /^(\w+) ([A-Z]+) (\S+) → (\d{3})$/;

export function parseStatusAnnotation(description: string | undefined): RecordedRequest | undefined {
  const match = statusAnnotation.exec(description ?? '');
  if (!match) return undefined;
  return { operation: match[1]!, method: match[2]!, path: match[3]!, status: Number(match[4]) };
}

/** The requests recorded in a list of annotations, in order. */
export function recordedRequests(
  annotations: ReadonlyArray<{ type: string; description?: string }>,
): RecordedRequest[] {
  return annotations
    .filter((annotation) => annotation.type === 'status')
    .map((annotation) => parseStatusAnnotation(annotation.description))
    .filter((request) => request !== undefined);
}
