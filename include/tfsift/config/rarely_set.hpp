// A part of a model object that most objects leave at its default, such as
// a resource's `lifecycle` block: held apart, and shared by the copies of
// the object, so that it costs one pointer where it is not set.
//
// A dense file of small resources makes the size of Resource the cost of
// each one, twice over (the decoded file's and the merged module's copy), so
// what few resources set does not sit inline in every one of them.
#pragma once

#include <memory>
#include <utility>

namespace tfsift::config {

template <class T>
class RarelySet {
public:
    RarelySet() = default;
    RarelySet(T value) : value_(std::make_shared<T>(std::move(value))) {}  // NOLINT(google-explicit-constructor)

    // The value; the default when none was set.
    const T& operator*() const { return value_ ? *value_ : fallback(); }
    const T* operator->() const { return &**this; }

    // The value to change, made first when there is none and copied first
    // when another object shares it (objects are changed only while they are
    // decoded and merged, on one thread).
    T& edit() {
        if (!value_) {
            value_ = std::make_shared<T>();
        } else if (value_.use_count() > 1) {
            value_ = std::make_shared<T>(*value_);
        }
        return *value_;
    }

private:
    static const T& fallback() {
        static const T value{};
        return value;
    }

    std::shared_ptr<T> value_;
};

}  // namespace tfsift::config
