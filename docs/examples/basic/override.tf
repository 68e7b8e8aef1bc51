# Overrides the bucket name for this checkout only.
resource "aws_s3_bucket" "logs" {
  bucket = "local-test-logs"
}
