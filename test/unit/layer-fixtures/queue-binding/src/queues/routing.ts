export const tagged = (kind: string, body: object) => ({ ...body, queue: kind });
