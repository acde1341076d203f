// package.json `preinstall`: names an old Node with its fix. npm runs it once the dependencies are
// in, so the `node` running it is already the devDependency's Node 22 (node_modules/.bin comes
// first on a script's PATH); the newcomer's own Node is the one npm itself runs on, which npm
// names in npm_config_user_agent. Plain old syntax on purpose: it must parse on any Node.
var REQUIRED = [22, 12];

/** What to tell the user of Node `version` ("20.20.2"): stop the install, a notice, or nothing. */
function verdict(version) {
  var parts = String(version).split(".").map(Number);
  var atLeast = (major, minor) => parts[0] > major || (parts[0] === major && parts[1] >= minor);
  if (!atLeast(18, 0)) {
    return {
      stop: true,
      message:
        "mcp-task-worker: Node " +
        version +
        " is older than anything this project is tried with (18 and later).\n" +
        "  Fix: install Node 22 (`nvm install` reads .nvmrc), then run `npm install` again.",
    };
  }
  if (!atLeast(REQUIRED[0], REQUIRED[1])) {
    return {
      stop: false,
      message:
        "mcp-task-worker: your Node is " +
        version +
        "; wrangler needs " +
        REQUIRED.join(".") +
        " or later.\n" +
        "  npm scripts (`npm run dev`, `npm test`, `npm exec -- wrangler …`) use the Node 22 this install brings, so they work as they are.\n" +
        "  A wrangler you start outside npm (a global one, ./node_modules/.bin/wrangler) needs Node 22: `nvm use` (.nvmrc).",
    };
  }
  return { stop: false, message: "" };
}

/** The Node that npm runs on, from its user agent ("npm/11.19.1 node/v20.20.2 linux x64 …"), else `fallback`. */
function usersNode(userAgent, fallback) {
  var match = /\bnode\/v(\d+\.\d+\.\d+)/.exec(userAgent || "");
  return match ? match[1] : fallback;
}

if (require.main === module) {
  // biome-ignore lint/correctness/noInnerDeclarations: plain old syntax on purpose (above)
  var result = verdict(usersNode(process.env.npm_config_user_agent, process.versions.node));
  if (result.message) console.error(result.message);
  if (result.stop) process.exit(1);
}

module.exports = { verdict: verdict, usersNode: usersNode };
