/**
 * The device's GPUDeviceLostInfo if it is lost, else null (a Promise). `device.lost` resolves
 * a round trip after `destroy()`: the queue's reply to onSubmittedWorkDone comes back after
 * the loss is reported, and a task later the promise's handlers have run.
 */
export function deviceLost(device: any): Promise<any>;
/** The message for a lost device's GPUDeviceLostInfo. */
export function lostMessage(info: any): string;
