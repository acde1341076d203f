/**
 * Stands in for mimetext in an McpAgent Worker's bundle (wrangler `alias`, docs/bundle.md). `agents`
 * loads it only inside `Agent.replyToEmail`, which an MCP server does not call, and its MIME type
 * table is about 29 KiB gzip of the upload.
 */
export function createMimeMessage(): never {
  throw new Error(
    "mimetext is left out of this Worker's bundle (wrangler's alias points it at mcp-task-worker's stand-in), " +
      'so Agent.replyToEmail cannot build a reply. Remove the "mimetext" line from the alias block of your wrangler config to send email replies.',
  );
}
