terraform {
  required_version = ">= 1.5.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

variable "environment" {
  type    = string
  default = "staging"
}

locals {
  name_prefix = "app-${var.environment}"
  ports       = [for p in [80, 443] : p if p != 0]
}

resource "aws_s3_bucket" "logs" {
  bucket = "${local.name_prefix}-logs"

  lifecycle {
    prevent_destroy = true
  }
}

output "bucket_arn" {
  # tfsift-ignore: deprecated-interpolation -- callers still on Terraform 0.11
  value = aws_s3_bucket.logs.arn
}

output "ports" {
  value = local.ports
}
