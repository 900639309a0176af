-- Helpers of the memory scripts (memory-scripts.ts), read in front of each. Lua's < on strings
-- follows the server's LC_COLLATE, so ties are broken by an explicit byte comparison (= code-point
-- order, as in compareCodePoints).
local function fmt(x) return string.format('%.17g', x) end
local function decay(dt, hl) if dt <= 0 then return 1 end return 2 ^ (-dt / hl) end
local function bytes_less(a, b)
  local la, lb = #a, #b
  for i = 1, math.min(la, lb) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return la < lb
end
local function cap(hist, k, favoured)
  local keys = {}
  for key in pairs(hist) do keys[#keys + 1] = key end
  if #keys <= k then return hist end
  table.sort(keys, function(a, b)
    if hist[a] ~= hist[b] then return hist[a] > hist[b] end
    local fa, fb = favoured[a] == true, favoured[b] == true
    if fa ~= fb then return fa end
    return bytes_less(a, b)
  end)
  local out = {}
  for i = 1, k do out[keys[i]] = hist[keys[i]] end
  return out
end
