// webgpu-device.js: whether a WebGPU device is lost (destroyed by its page, or lost by its
// driver). A lost device reports no errors and runs nothing, so df64gl asks before it makes a
// plan or checks, and again when work fails, to say that instead of blaming the routines.

/**
 * The device's GPUDeviceLostInfo if it is lost, else null (a Promise). `device.lost` resolves
 * a round trip after `destroy()`: the queue's reply to onSubmittedWorkDone comes back after
 * the loss is reported, and a task later the promise's handlers have run.
 */
export async function deviceLost(device) {
  if (!device || !device.lost || typeof device.lost.then !== 'function') return null;
  let info = null;
  device.lost.then(function (i) { info = i; });
  try {
    if (device.queue && typeof device.queue.onSubmittedWorkDone === 'function') await device.queue.onSubmittedWorkDone();
  } catch (e) {
    // A lost device may refuse the call: the loss says why below.
  }
  await new Promise(function (resolve) { setTimeout(resolve, 0); });
  return info;
}

/** The message for a lost device's GPUDeviceLostInfo. */
export function lostMessage(info) {
  return 'the WebGPU device is lost (' + String(info.reason) + (info.message ? ': ' + info.message : '') + ')';
}
