-- wrk script for bench/bench.py: each wrk thread is one person with their own token and one
-- connection, calling one tool again and again, one call after another (wrk -t N -c N).
--
-- Arguments (after `--`): TOKENS_FILE TOOL ARGS_JSON MODE [CALLS]
--   TOKENS_FILE  one bearer token a line; thread i takes line i
--   MODE         `stateless`: each call is a self-contained 2026-07-28 request (its `_meta`, no session);
--                `session`: 2025-11-25, the thread first sends `initialize`, keeps the Mcp-Session-Id
--                it gets, sends `notifications/initialized`, then calls within the session
--   CALLS        stop the thread after this many calls (for the instruction count; default: run for
--                wrk's -d duration)
--   STOPPED_FILE with CALLS: a line is appended here when a thread has made its calls. wrk itself waits
--                out its -d duration even when every thread has stopped, so bench.py interrupts it
--                (SIGINT: wrk then prints its summary) once the file holds a line per thread
-- The requests are built once per thread (wrk spends no time building them); the response body is
-- never parsed here (bench.py checks one answer of each person before the run).

local counter = 0
local threads = {}

function setup(thread)
   counter = counter + 1
   thread:set("index", counter)
   table.insert(threads, thread)
end

local token, tool, args, mode, limit, stopped_file
local call, init_req, initialized_req
local state = "calls"
local session = nil
local done_calls = 0

local function headers(extra)
   local h = {
      ["Content-Type"] = "application/json",
      ["Accept"] = "application/json, text/event-stream",
      ["Authorization"] = "Bearer " .. token,
   }
   for k, v in pairs(extra) do h[k] = v end
   return h
end

function init(argv)
   local file, tool_name, args_json = argv[1], argv[2], argv[3]
   mode = argv[4] or "stateless"
   limit = tonumber(argv[5] or "0")
   stopped_file = argv[6]
   local i = 0
   for line in io.lines(file) do
      i = i + 1
      if i == index then token = line end
   end
   if not token then error("no token for thread " .. index .. " in " .. file) end
   tool, args = tool_name, args_json
   if mode == "stateless" then
      local body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"' .. tool ..
         '","arguments":' .. args .. ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",' ..
         '"io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"1"},' ..
         '"io.modelcontextprotocol/clientCapabilities":{}}}}'
      call = wrk.format("POST", nil, headers({
         ["MCP-Protocol-Version"] = "2026-07-28",
         ["Mcp-Method"] = "tools/call",
         ["Mcp-Name"] = tool,
      }), body)
      -- Nothing to read from an answer: wrk then skips the script for each response.
      if limit == 0 then response = nil end
   else
      state = "initialize"
      init_req = wrk.format("POST", nil, headers({}),
         '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",' ..
         '"capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}')
   end
end

function request()
   if state == "initialize" then
      return init_req
   elseif state == "initialized" then
      return initialized_req
   end
   return call
end

function response(status, hdrs, body)
   if state == "initialize" then
      session = hdrs["mcp-session-id"] or hdrs["Mcp-Session-Id"]
      if not session then error("initialize answered " .. status .. " without a session: " .. body) end
      local h = headers({ ["Mcp-Session-Id"] = session, ["MCP-Protocol-Version"] = "2025-11-25" })
      initialized_req = wrk.format("POST", nil, h, '{"jsonrpc":"2.0","method":"notifications/initialized"}')
      call = wrk.format("POST", nil, h, '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"' ..
         tool .. '","arguments":' .. args .. '}}')
      state = "initialized"
      return
   elseif state == "initialized" then
      state = "calls"
      return
   end
   done_calls = done_calls + 1
   if limit > 0 and done_calls == limit then
      if stopped_file then
         local out = io.open(stopped_file, "a")
         if out then
            out:write(index, "\n")
            out:close()
         end
      end
      wrk.thread:stop()
   end
end

function done(summary, latency, requests)
   io.write(string.format(
      '{"requests":%d,"duration_us":%d,"errors_status":%d,"errors_connect":%d,"errors_read":%d,' ..
      '"errors_write":%d,"errors_timeout":%d,"p50_us":%d,"p99_us":%d,"mean_us":%.1f}\n',
      summary.requests, summary.duration, summary.errors.status, summary.errors.connect,
      summary.errors.read, summary.errors.write, summary.errors.timeout,
      latency:percentile(50), latency:percentile(99), latency.mean))
end
