import type { vendorsEndpoints } from "~/contract/vendors";
import type { HandlersFor } from "../router.server";
import { notImplemented } from "../errors.server";

const todo = async (): Promise<never> => {
  throw notImplemented("Not built yet");
};

export const vendorsHandlers: HandlersFor<typeof vendorsEndpoints> = {
  vendorsMe: todo,
  vendorsMeStores: todo,
  vendorsMeProducts: todo,
  vendorsMeProductStatus: todo,
  vendorsMePayouts: todo,
  vendorsList: todo,
  vendorsGet: todo,
  vendorsUpdate: todo,
  vendorsStores: todo,
  vendorsProducts: todo,
  vendorsPayouts: todo,
  vendorsPayoutMarkPaid: todo,
};
