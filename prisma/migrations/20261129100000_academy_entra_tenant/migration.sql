-- The Microsoft Entra ID tenant (directory id, a lower-case GUID) the academy's people sign in from: a Microsoft
-- sign-in whose token names another tenant (`tid`) is refused; null: nobody of the academy signs in with Microsoft.
ALTER TABLE "academies" ADD COLUMN "entra_tenant_id" TEXT;
ALTER TABLE "academies" ADD CONSTRAINT "academies_entra_tenant_id_check"
  CHECK ("entra_tenant_id" ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$');
